/** How a file tool was invoked is wrong (bad flag, missing file): exit 1 with the message only. */
export class ToolUsageError extends Error {
  override readonly name = 'ToolUsageError';
}
