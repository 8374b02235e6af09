// Whether the listener process that forked this worker is still alive. A worker learns of its listener's death
// by the IPC channel's 'disconnect' event, which waits for the event loop; a worker busy on synchronous
// statements can meanwhile still send a webhook the dead instance will never record (the takeover then sends
// it again). Before anything leaves the machine the worker asks the kernel instead: on Linux a dead parent's
// children are handed to another process at once, so /proc/self/stat's parent id changes at the kill.
import { readFileSync } from 'node:fs';

/** The parent id in /proc/self/stat (the field after the parenthesised command name), or null off Linux. */
function currentParentId(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/** A check bound to the listener's process id as it was when the worker started. */
export function listenerAliveCheck(listenerPid: number = process.ppid): () => boolean {
  return () => {
    const parent = currentParentId();
    if (parent !== null) return parent === listenerPid;
    try {
      process.kill(listenerPid, 0);
      return true;
    } catch {
      return false;
    }
  };
}
