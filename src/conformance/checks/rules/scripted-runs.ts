// Runs whose outcome a check scripts through the control plane (completeRun) are launched with the target's run
// execution off (manual mode), so the target's own execution cannot complete them first and raise a completion
// the check does not expect. Checks run one at a time, so the switch holds for the launch alone and is turned back
// on (automatic, every organization's default) at once. A target without the switch launches as it is.
import type { CheckContext } from '../context.js';

export async function launchScripted<T>(ctx: CheckContext, launch: () => Promise<T>): Promise<T> {
  const control = ctx.target.control;
  if (!control?.setRunExecution) return launch();
  await control.setRunExecution('manual');
  try {
    return await launch();
  } finally {
    await control.setRunExecution('automatic');
  }
}
