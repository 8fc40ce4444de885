// jq-web ships no types: its CommonJS export is a promise of the instantiated jq.
declare module 'jq-web' {
  const ready: Promise<{ raw(input: string, filter: string, flags?: string[]): string | undefined }>;
  export default ready;
}
