/** A MongoDB server error: answered as `{ ok: 0, errmsg, code, codeName }` plus extra fields. */
export class MongoCommandError extends Error {
  constructor(
    public readonly code: number,
    public readonly codeName: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

export const badValue = (msg: string) => new MongoCommandError(2, 'BadValue', msg);
export const failedToParse = (msg: string) => new MongoCommandError(9, 'FailedToParse', msg);
export const commandNotFound = (name: string) =>
  new MongoCommandError(59, 'CommandNotFound', `no such command: '${name}'`);
export const namespaceNotFound = (msg = 'ns not found') =>
  new MongoCommandError(26, 'NamespaceNotFound', msg);
export const invalidNamespace = (msg: string) => new MongoCommandError(73, 'InvalidNamespace', msg);
export const cursorNotFound = (id: string) =>
  new MongoCommandError(43, 'CursorNotFound', `cursor id ${id} not found`);
export const writeConflict = () =>
  new MongoCommandError(
    112,
    'WriteConflict',
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    { errorLabels: ['TransientTransactionError'] },
  );
export const noSuchTransaction = (txn: number) =>
  new MongoCommandError(
    251,
    'NoSuchTransaction',
    `Transaction with { txnNumber: ${txn} } has been aborted.`,
    {
      errorLabels: ['TransientTransactionError'],
    },
  );

/** Turns a mingo or other internal error into MongoDB's error shape. */
export function toCommandError(error: unknown): MongoCommandError {
  if (error instanceof MongoCommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // mingo's messages, answered with the codes mongod gives the same mistakes
  if (/^Use of undefined variable/.test(message))
    return new MongoCommandError(17276, 'Location17276', message);
  const stage = /unregistered pipeline operator (\$\w+)/.exec(message);
  if (stage)
    return new MongoCommandError(40324, 'Location40324', `Unrecognized pipeline stage name: '${stage[1]}'`);
  const expression = /(?:accumulator|expression|operator) '(\$\w+)' is not registered/.exec(message);
  if (expression)
    return new MongoCommandError(
      168,
      'InvalidPipelineOperator',
      `Unrecognized expression '${expression[1]}'`,
    );
  const queryOp = /unknown query operator (\$\w+)/.exec(message);
  if (queryOp) return badValue(`unknown operator: ${queryOp[1]}`);
  if (/unknown|not supported|invalid|operator/i.test(message)) return badValue(message);
  return new MongoCommandError(8, 'UnknownError', message);
}
