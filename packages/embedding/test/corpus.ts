/**
 * A small corpus of four topics (text editors, compression, chess, music), built from word lists so each
 * topic's words are seen together often and never beside another topic's, plus filler words every topic
 * shares. 64 texts.
 */
const TOPICS: Record<string, string[]> = {
  editor: ['text', 'editor', 'vim', 'emacs', 'syntax', 'highlighting', 'keybindings', 'edit'],
  compression: ['gzip', 'compress', 'archive', 'zip', 'decompress', 'bzip2', 'tar', 'ratio'],
  chess: ['chess', 'board', 'game', 'opponent', 'moves', 'checkmate', 'knight', 'pawn'],
  music: ['music', 'audio', 'playlist', 'mp3', 'speakers', 'songs', 'volume', 'album'],
};
const FILLER = ['free', 'tool', 'program', 'linux', 'simple', 'fast', 'small', 'new'];

export const TOPIC_NAMES = Object.keys(TOPICS);

export interface CorpusText {
  topic: string;
  text: string;
}

export const CORPUS: CorpusText[] = Object.entries(TOPICS).flatMap(([topic, words]) =>
  Array.from({ length: 16 }, (_, i) => ({
    topic,
    text: [
      FILLER[i % FILLER.length],
      words[i % words.length],
      'the',
      words[(i + 1) % words.length],
      words[(i + 3) % words.length],
      FILLER[(i + 3) % FILLER.length],
      words[(i + 4) % words.length],
    ].join(' '),
  })),
);

export const TEXTS = CORPUS.map(({ text }) => text);
