/**
 * The variable names of an RFC 6570 URI template, in order, without
 * duplicates: `{id}`, `{+path}`, `{?q,page}`, `{var:3}`, `{list*}` all name
 * variables. The renderer only needs the names to draw the form; the host
 * expands the template (with the SDK's implementation) before reading.
 */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
    const body = (match[1] ?? '').replace(/^[+#./;?&=,!@|]/, '');
    for (const spec of body.split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '').trim();
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * A preview of the URI a template gives with these values (simple `{var}`
 * expansion only, percent-encoded); other operators are left for the host.
 */
export function previewUri(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z0-9_.%]+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined || value === '' ? whole : encodeURIComponent(value);
  });
}
