// Writes a small but valid PDF by hand (one Helvetica line per page, an xref table with exact
// offsets), so tests read text back from a real document without a PDF-writing dependency.

/** Escapes a string for a PDF literal string: backslash and parentheses. */
function literal(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF whose page n shows `pages[n]` (Latin-1 text), with `title` in its info dictionary when given. */
export function makePdf(pages: string[], title?: string): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add(''); // 1: catalog, written below
  add(''); // 2: page tree, written below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'); // 3
  const kids: number[] = [];
  for (const text of pages) {
    const stream = `BT /F1 14 Tf 72 720 Td (${literal(text)}) Tj ET`;
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`),
    );
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = title === undefined ? 0 : add(`<< /Title (${literal(title)}) >>`);

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
