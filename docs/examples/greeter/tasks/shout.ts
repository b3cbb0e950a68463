// Runs in a worker thread of the runtime's piscina pool: CPU work stays off the event loop.
export default function shout(text: string): string {
  return text.toUpperCase();
}
