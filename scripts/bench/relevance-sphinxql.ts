// The least of the MySQL wire protocol that SphinxQL needs: a handshake without a password and text queries whose
// rows come back as strings. The project has no MySQL driver, and timing Sphinx through the `mysql` client would
// time a process start per query instead of the search.
import net from 'node:net';

const CLIENT_LONG_PASSWORD = 0x1;
const CLIENT_PROTOCOL_41 = 0x200;
const CLIENT_SECURE_CONNECTION = 0x8000;
const COM_QUERY = 0x03;
const UTF8_GENERAL_CI = 33;
/** In an EOF packet's status: another result set follows. */
const SERVER_MORE_RESULTS_EXIST = 0x8;

/** One connection to searchd's mysql41 listener; one query at a time. */
export class SphinxQL {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private failure: Error | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('error', (error) => {
      this.failure = error;
      this.wake();
    });
    socket.on('close', () => {
      this.failure ??= new Error('searchd closed the connection');
      this.wake();
    });
  }

  static async connect(port: number): Promise<SphinxQL> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new SphinxQL(socket);
    await client.packet(); // the server's greeting: nothing in it is needed
    const response = Buffer.alloc(32 + 5 + 1);
    response.writeUInt32LE(CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION, 0);
    response.writeUInt32LE(1 << 24, 4);
    response[8] = UTF8_GENERAL_CI;
    response.write('root\0', 32, 'latin1'); // any user; then an empty auth response (its length, 0)
    client.send(1, response);
    expectOk(await client.packet());
    return client;
  }

  /** The rows of a statement, each column as text (null for NULL): one list a result set (FACET adds sets). */
  async query(sql: string): Promise<Array<Array<Array<string | null>>>> {
    this.send(0, Buffer.concat([Buffer.from([COM_QUERY]), Buffer.from(sql, 'utf8')]));
    const sets: Array<Array<Array<string | null>>> = [];
    for (let more = true; more; ) {
      const head = await this.packet();
      if (head[0] === 0x00) return sets;
      expectOk(head, false);
      const columns = readLengthEncoded(head, 0).value;
      for (let i = 0; i < columns; i++) await this.packet();
      if (!isEof(await this.packet())) throw new Error('SphinxQL: no EOF after the column definitions');
      const rows: Array<Array<string | null>> = [];
      let row = await this.packet();
      for (; !isEof(row); row = await this.packet()) {
        expectOk(row, false);
        rows.push(readRow(row, columns));
      }
      sets.push(rows);
      more = (row.readUInt16LE(3) & SERVER_MORE_RESULTS_EXIST) !== 0;
    }
    return sets;
  }

  close(): void {
    this.socket.destroy();
  }

  private send(sequence: number, payload: Buffer): void {
    const header = Buffer.alloc(4);
    header.writeUIntLE(payload.length, 0, 3);
    header[3] = sequence;
    this.socket.write(Buffer.concat([header, payload]));
  }

  /** The next packet's payload (packets of 16 MB and more, which these answers never reach, are not joined). */
  private async packet(): Promise<Buffer> {
    for (;;) {
      if (this.buffer.length >= 4) {
        const length = this.buffer.readUIntLE(0, 3);
        if (this.buffer.length >= 4 + length) {
          const payload = this.buffer.subarray(4, 4 + length);
          this.buffer = this.buffer.subarray(4 + length);
          return payload;
        }
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}

const isEof = (packet: Buffer) => packet[0] === 0xfe && packet.length < 9;

/** Throws on an ERR packet; with `okOnly`, on anything but OK. */
function expectOk(packet: Buffer, okOnly = true): void {
  if (packet[0] === 0xff) throw new Error(`SphinxQL: ${packet.subarray(9).toString('utf8')}`);
  if (okOnly && packet[0] !== 0x00) throw new Error(`SphinxQL: unexpected packet ${packet[0]}`);
}

function readLengthEncoded(packet: Buffer, at: number): { value: number; next: number } {
  const first = packet[at]!;
  if (first < 0xfb) return { value: first, next: at + 1 };
  if (first === 0xfc) return { value: packet.readUInt16LE(at + 1), next: at + 3 };
  if (first === 0xfd) return { value: packet.readUIntLE(at + 1, 3), next: at + 4 };
  return { value: Number(packet.readBigUInt64LE(at + 1)), next: at + 9 };
}

function readRow(packet: Buffer, columns: number): Array<string | null> {
  const row: Array<string | null> = [];
  let at = 0;
  for (let i = 0; i < columns; i++) {
    if (packet[at] === 0xfb) {
      row.push(null);
      at++;
      continue;
    }
    const { value, next } = readLengthEncoded(packet, at);
    row.push(packet.toString('utf8', next, next + value));
    at = next + value;
  }
  return row;
}
