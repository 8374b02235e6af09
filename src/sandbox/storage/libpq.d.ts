// The part of `libpq` (node-postgres's synchronous binding of the PostgreSQL C client) the PostgreSQL store uses.
declare module 'libpq' {
  class PQ {
    connectSync(conninfo: string): void;
    finish(): void;
    /** 0 idle, 1 active, 2 in a transaction, 3 in a failed transaction, 4 unknown (the connection is bad). */
    transactionStatus(): number;
    errorMessage(): string;
    exec(text: string): void;
    execParams(text: string, values: (string | null)[]): void;
    prepare(name: string, text: string, nParams: number): void;
    execPrepared(name: string, values: (string | null)[]): void;
    resultStatus(): string;
    resultErrorMessage(): string;
    resultErrorFields(): { sqlState?: string; messagePrimary?: string } | undefined;
    ntuples(): number;
    nfields(): number;
    fname(column: number): string;
    getvalue(row: number, column: number): string;
    getisnull(row: number, column: number): boolean;
    cmdTuples(): string;
    /** The value as a quoted SQL literal (the server's encoding and quoting rules). */
    escapeLiteral(value: string): string;
  }
  export default PQ;
}
