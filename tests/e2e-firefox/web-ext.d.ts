// The part of web-ext's programmatic API the Firefox lane uses (the package ships no types).
declare module 'web-ext' {
  interface LintMessage {
    code: string;
    message: string;
    file?: string;
    line?: number;
  }
  interface LintResult {
    count: number;
    summary: { errors: number; warnings: number; notices: number };
    errors: LintMessage[];
    warnings: LintMessage[];
    notices: LintMessage[];
  }
  const webExt: {
    cmd: {
      lint(
        params: { sourceDir: string; output: 'json' | 'text' | 'none'; boring?: boolean; selfHosted?: boolean; warningsAsErrors?: boolean; pretty?: boolean; metadata?: boolean; privileged?: boolean },
        options: { shouldExitProgram: boolean },
      ): Promise<LintResult>;
    };
  };
  export default webExt;
}
