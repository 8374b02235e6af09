// The parameter that ends a path template, with the literal text after it in its segment: `/pets/{petId}` gives
// `petId` and `''`; twilio's `/Calls/{Sid}.json` gives `Sid` and `.json` (issue 27). One definition for the model's
// inference, the sandbox's record lookup and the conformance suite.
export function lastTemplate(path: string): { name: string; suffix: string } | undefined {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const m = /^\{([^{}]+)\}([^{}]*)$/.exec(last);
  return m ? { name: m[1]!, suffix: m[2]! } : undefined;
}
