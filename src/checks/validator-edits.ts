// Edits scripts/build-validator.mjs makes to the standalone code ajv generates for the bundled
// envelope schema (src/checks/schema-load.ts uses the result). Each works on the text of ajv 8's
// code, and refuses code that does not read as it expects: an ajv upgrade fails the build, rather
// than leaving an edit half made. test/differential.test.ts holds the edited code to ajv's own.

/**
 * Inside a subschema whose errors are thrown away (`if`, `not`), ajv counts each failure by pushing
 * an empty object onto the error list: `const err7 = {};if(vErrors === null){vErrors = [err7];}else
 * {vErrors.push(err7);}errors++;`. Every such subschema ends by setting `errors` back to its count
 * before it and cutting the list to that length, so only the count matters, and the push is dropped.
 * The bundled schema's two `if`s and its `not` would make one to three such objects (and an array)
 * of garbage for every record.
 */
export function countOnly(code: string): string {
  const placeholder = /const (err\d+) = \{\};if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}errors\+\+;/g;
  return code.replace(placeholder, 'errors++;');
}

/**
 * With allErrors, ajv lists every failure, and a record can hold millions (a long line of
 * `"warnings":[1,1,...]`), enough to exhaust the heap before a finding is made. The list stops at
 * `limit` errors; `errors` still counts every one (the
 * verdict and the `if`/`not`/`anyOf` logic read it), published as `errorCount`, so that the report
 * can say how many it does not list. The list is ajv's own, cut at that length: a push happens only
 * while fewer were counted (below the limit the list holds every error counted), and cutting back
 * to an earlier count never lengthens it (a subschema that starts past the limit ends with the list
 * as it found it).
 */
export function boundedList(code: string, limit: number): string {
  const pushes = /if\(vErrors === null\)\{vErrors = \[(err\d+)\];\}else \{vErrors\.push\(\1\);\}errors\+\+;/g;
  const cuts = /vErrors\.length = (_errs\d+);/g;
  const end = /(validate\d+)\.errors = vErrors;return errors === 0;/g;
  // Any other way onto the list (a nested validator's errors joined to it, say) would be unbounded.
  const rest = code.replace(pushes, '').replace(/const err\d+ = \{[^;]*\};/g, '');
  if ((code.match(end)?.length ?? 0) !== 1 || /vErrors\.concat|vErrors = \[|\.push\(|\bvErrors\.length\b(?! = _errs\d+;)/.test(rest)) {
    throw new Error("validator-edits: ajv's standalone code no longer reads as boundedList() expects; update the edit");
  }
  return code
    .replace(pushes, `if(errors < ${limit}){if(vErrors === null){vErrors = [$1];}else {vErrors.push($1);}}errors++;`)
    .replace(cuts, 'if(vErrors.length > $1){vErrors.length = $1;}')
    .replace(end, '$1.errors = vErrors;$1.errorCount = errors;return errors === 0;');
}

/**
 * ajv's 2019-09 and 2020-12 code notes which properties each `if`/`then` and `anyOf` branch
 * evaluated, for `unevaluatedProperties`, in objects it makes per record: `var props0 = {};
 * props0.error = true;props0.ok = true;` and `if(props0 !== true){props0 = props0 || {};
 * props0.ok = true;}`. Where nothing reads them (no `unevaluatedProperties` beside them: the
 * bundled schema has none, and the function's own `evaluated` is fixed at `props: true`), they are
 * dropped: two objects of garbage a record, most of what the validator would otherwise allocate.
 * Any other use of such a variable, or an `evaluated` that can change, refuses the code.
 */
export function untrackedProps(code: string): string {
  const key = String.raw`(?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])`;
  const made = new RegExp(String.raw`var (props\d+) = \{\};(?:\1${key} = true;)*`, 'g');
  const grown = new RegExp(String.raw`if\((props\d+) !== true\)\{\1 = \1 \|\| \{\};(?:\1${key} = true;)*\}`, 'g');
  const edited = code.replace(made, '').replace(grown, '');
  const fixed = /\.evaluated = \{"props":true,"dynamicProps":false,"dynamicItems":false\};/;
  if (/\bprops\d+\b/.test(edited) || !fixed.test(code) || (code.match(/\.evaluated = /g)?.length ?? 0) !== 1) {
    throw new Error("validator-edits: ajv's standalone code no longer reads as untrackedProps() expects; update the edit");
  }
  return edited;
}

/**
 * A standalone validator's options have defaults in its signature: `function validate20(data,
 * {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={})`, so a
 * call with the value alone, as every record's is, made two empty objects (V8's sampling heap
 * profile put ~68 bytes a record in the validator on 200k lines of the bench, most of it these).
 * The options default to one object made once, and `dynamicAnchors`, which the code never reads
 * (the schema has no `$dynamicAnchor`), is dropped. Code that reads or passes it is refused.
 */
export function sharedDefaults(code: string): string {
  const signature = /function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors=\{\}\}=\{\}\)\{/g;
  const signatures = code.match(signature)?.length ?? 0;
  if (signatures === 0 || (code.match(/\bdynamicAnchors\b/g)?.length ?? 0) !== signatures || /\bnoOptions\b/.test(code) || !code.startsWith('"use strict";')) {
    throw new Error("validator-edits: ajv's standalone code no longer reads as sharedDefaults() expects; update the edit");
  }
  const edited = code.replace(signature, 'function $1(data, {instancePath="", parentData, parentDataProperty, rootData=data}=noOptions){');
  return `"use strict";const noOptions = Object.freeze({});${edited.slice('"use strict";'.length)}`;
}
