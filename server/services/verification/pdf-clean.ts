import {
  decodePDFRawStream,
  ParseSpeeds,
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFDocument,
  PDFInvalidObject,
  PDFName,
  type PDFObject,
  PDFObjectStreamParser,
  PDFPageLeaf,
  PDFPageTree,
  type PDFRawStream,
  PDFStream,
  PDFXRefStreamParser,
} from 'pdf-lib';

// Every uploaded PDF is rebuilt, never kept as sent (issue 16 item 5): its pages are copied into a
// new document whose catalogue has nothing but those pages, and each page keeps only what is drawn
// (its boxes, resources and content streams). So no open action, document JavaScript, form, XFA,
// attached file, outline, link or other annotation, and no page action reaches a moderator's
// reader, wherever the upload hid them (an object stream, #-escaped names, an incremental update).
// A scan of the raw bytes cannot see inside compressed object streams; this reads the file as a
// reader does. What survives is then walked object by object, and the file is refused rather than
// stored if any dictionary still names an action, a script, a form or another file. The result is
// written without object streams, so the stored file is plain.
//
// Not covered: a flaw in a reader's font or image decoder, which a rebuilt file still exercises;
// only turning pages into pictures would. Annotations are dropped, not drawn: a stamp or a filled
// form field added on top of a page is not shown.

/** A verification document or a proof has a few pages; more is a statement nobody reviews whole. */
export const PDF_MAX_PAGES = 50;
/**
 * Object and cross-reference streams are the only ones inflated while a file is read. Deflate packs
 * about 1000:1, so a 1 MB stream can hold 1 GB; this is their total per file.
 */
export const PDF_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

export type PdfRefusal = 'damaged' | 'encrypted' | 'pages' | 'active';

export class PdfRefused extends Error {
  readonly reason: PdfRefusal;
  constructor(reason: PdfRefusal, detail: string, options?: ErrorOptions) {
    super(detail, options);
    this.name = 'PdfRefused';
    this.reason = reason;
  }
}

/** What a copied page keeps: where it is drawn and what is drawn there (/Parent is needed to inherit them). */
const PAGE_KEYS = new Set([
  'Type',
  'Parent',
  'Resources',
  'Contents',
  'MediaBox',
  'CropBox',
  'BleedBox',
  'TrimBox',
  'ArtBox',
  'Rotate',
  'UserUnit',
  'Group',
]);

/** Keys that run something, open something or carry a file, in any dictionary. */
const ACTIVE_KEYS = new Set([
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
  'EF',
  'FS',
]);
/** On a stream: its data, or what it stands for, lives in another file (a path, a share, a URL). */
const EXTERNAL_STREAM_KEYS = new Set(['F', 'FFilter', 'FDecodeParms', 'OPI', 'Ref']);
/** Values of /S and /Type that make a dictionary an action, an annotation or a file. */
const ACTIVE_TYPES = new Set([
  'JavaScript',
  'Launch',
  'GoTo',
  'GoToR',
  'GoToE',
  'GoToDp',
  'GoTo3DView',
  'URI',
  'SubmitForm',
  'ResetForm',
  'ImportData',
  'Hide',
  'Named',
  'Thread',
  'Trans',
  'SetOCGState',
  'Rendition',
  'Movie',
  'Sound',
  'RichMediaExecute',
  'Action',
  'Annot',
  'Filespec',
  'EmbeddedFile',
]);

// pdf-lib inflates object and cross-reference streams as it parses, all at once and without a
// limit (a 1 MB upload took 13 s and 4 GB). Its parser creates their readers through these two
// static factories; wrapped, each stream is first inflated up to what is left of its file's
// budget (files are told apart by their parse context, so concurrent uploads keep their own).
// The parser takes an error there for one bad object and reads on, so a file that went over is
// marked and refused once read, and its further streams are not inflated at all.
// The wrap is process-wide and done once, however often this module is loaded.
const inflated = new WeakMap<PDFContext, number>();
const GUARDED = Symbol.for('coinfair.pdf-clean.inflation-guard');

function inflateWithinBudget(stream: PDFRawStream): void {
  const { context } = stream.dict;
  const used = inflated.get(context) ?? 0;
  const room = PDF_MAX_INFLATED_BYTES - used;
  const size = room < 0 ? 1 : decodePDFRawStream(stream).getBytes(room + 1).length;
  inflated.set(context, used + size);
  if (size > room) throw new PdfRefused('damaged', `streams inflate to more than ${PDF_MAX_INFLATED_BYTES} bytes`);
}

function guarded<A extends unknown[], R>(factory: (stream: PDFRawStream, ...rest: A) => R) {
  if (GUARDED in factory) return factory;
  const wrapped = (stream: PDFRawStream, ...rest: A): R => {
    inflateWithinBudget(stream);
    return factory(stream, ...rest);
  };
  return Object.assign(wrapped, { [GUARDED]: true });
}
PDFObjectStreamParser.forStream = guarded(PDFObjectStreamParser.forStream);
PDFXRefStreamParser.forStream = guarded(PDFXRefStreamParser.forStream);

/**
 * The pages of the document, counted without pdf-lib's recursion: a page tree that lists the same
 * node twice per level has 2^40 pages in a few kilobytes, and a cycle never ends.
 */
function pageCount(doc: PDFDocument): number {
  const { context } = doc;
  const seen = new Set<PDFObject>();
  const pending: (PDFObject | undefined)[] = [doc.catalog.get(PDFName.of('Pages'))];
  let pages = 0;
  while (pending.length > 0) {
    const node = context.lookup(pending.pop());
    if (node === undefined) throw new PdfRefused('damaged', 'a node of the page tree is missing');
    if (seen.has(node)) throw new PdfRefused('damaged', 'the page tree repeats a node');
    seen.add(node);
    if (node instanceof PDFPageTree) {
      for (const kid of node.Kids().asArray()) pending.push(kid);
    } else if (node instanceof PDFPageLeaf && ++pages > PDF_MAX_PAGES) {
      throw new PdfRefused('pages', `more than ${PDF_MAX_PAGES} pages`);
    }
  }
  return pages;
}

/**
 * A name as the rebuilt file spells it to a reader, #xx escapes decoded. (pdf-lib decodes only
 * upper-case escapes when it reads, and writes a "#" left in a name as #23: /#4aS is read as the
 * name "#4aS" and stays that to every reader of the new file.)
 */
const nameOf = (name: PDFName) => name.decodeText();

/** Refuses the document if any object it will write still names an action, a script, a form or a file. */
function assertInert(context: PDFContext): void {
  const pending: PDFObject[] = context.enumerateIndirectObjects().map(([, object]) => object);
  const active = (what: string) => new PdfRefused('active', `the rebuilt document still has ${what}`);
  while (pending.length > 0) {
    const object = pending.pop();
    if (object instanceof PDFInvalidObject) throw new PdfRefused('damaged', 'an object could not be read');
    if (object instanceof PDFArray) {
      for (const item of object.asArray()) pending.push(item);
      continue;
    }
    const isStream = object instanceof PDFStream;
    const dict = isStream ? object.dict : object instanceof PDFDict ? object : undefined;
    if (!dict) continue; // numbers, strings, names, references (every indirect object is walked)
    for (const [key, value] of dict.entries()) {
      const name = nameOf(key);
      if (ACTIVE_KEYS.has(name) || (isStream && EXTERNAL_STREAM_KEYS.has(name))) throw active(`/${name}`);
      if ((name === 'S' || name === 'Type') && value instanceof PDFName && ACTIVE_TYPES.has(nameOf(value))) {
        throw active(`/${name} /${nameOf(value)}`);
      }
      pending.push(value);
    }
  }
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    // Read even when encrypted, to tell that apart from damage (pdf-lib's own error classes fail
    // `instanceof`, being compiled to ES5). Fast: a pause every 1500 objects, not every 100; for
    // 550,000 tiny objects 1.5 s instead of 6.3 s, with the same ~40 ms longest stall.
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      parseSpeed: ParseSpeeds.Fast,
    });
  } catch (error) {
    throw new PdfRefused('damaged', 'the PDF could not be read', { cause: error });
  }
  if ((inflated.get(doc.context) ?? 0) > PDF_MAX_INFLATED_BYTES) {
    throw new PdfRefused('damaged', `streams inflate to more than ${PDF_MAX_INFLATED_BYTES} bytes`);
  }
  // Its strings and streams are ciphertext: pdf-lib cannot decrypt them, nor can we check them.
  if (doc.isEncrypted) throw new PdfRefused('encrypted', 'the PDF is encrypted');
  return doc;
}

/**
 * `bytes` rebuilt as a PDF of the same pages and nothing else, written without object streams;
 * `PdfRefused` when it cannot be read, is encrypted, has no pages or more than PDF_MAX_PAGES, or
 * still holds active content after the rebuild.
 */
export async function cleanPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await load(bytes);
  try {
    const pages = pageCount(source);
    if (pages === 0) throw new PdfRefused('damaged', 'the PDF has no pages');
    // Trimmed on the source, before copying: pdf-lib copies all that a page refers to, and an
    // annotation copied and then dropped would still be written as an orphan object.
    const sourcePages = source.getPages();
    for (const page of sourcePages) {
      for (const key of page.node.keys()) {
        if (!PAGE_KEYS.has(nameOf(key))) page.node.delete(key);
      }
    }
    const clean = await PDFDocument.create({ updateMetadata: false });
    const copies = await clean.copyPages(
      source,
      sourcePages.map((_, i) => i),
    );
    for (const page of copies) clean.addPage(page);
    assertInert(clean.context);
    return await clean.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  } catch (error) {
    if (error instanceof PdfRefused) throw error;
    // Hostile structure (a cycle among parents, nesting past the stack) ends in pdf-lib's errors.
    throw new PdfRefused('damaged', 'the PDF could not be rebuilt', { cause: error });
  }
}
