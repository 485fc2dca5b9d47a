import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFName, PDFPageLeaf } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  cleanPdf,
  PDF_MAX_INFLATED_BYTES,
  PDF_MAX_PAGES,
  PdfRefused,
} from '../../server/services/verification/pdf-clean.ts';
import type { browserSession } from '../support/browser-session.ts';
import {
  type ActiveSample,
  activeContentIn,
  activeSamples,
  encryptedPdf,
  inflationBomb,
  pageText,
  pageTreeBomb,
  pdfTextWithStreamsInflated,
  samplePdf,
  stream,
} from '../support/pdf-samples.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// Issue 16 item 5: a PDF with a JavaScript open action hidden in a compressed object stream, a
// GoToR to a UNC path or a URI open action was stored and served byte for byte, and moderators
// download these files. Every sample below is uploaded through the real endpoints (a verification
// document, a trade attachment) and downloaded as its reviewer does; what comes back must be a
// PDF of the same pages, showing the same text, with no action, script, form, annotation or
// attached file in it or in any of its streams once inflated. Files that cannot be rebuilt safely
// are refused and nothing is stored.

type Browser = ReturnType<typeof browserSession>;

const samples = activeSamples();

/** The checks on a stored file, whichever way it was uploaded. */
async function expectRebuiltClean(bytes: Buffer, sample: ActiveSample) {
  expect(bytes.subarray(0, 8).toString('latin1')).toMatch(/^%PDF-1\.\d/);
  expect(bytes.equals(sample.bytes)).toBe(false);
  const doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true });
  expect(doc.getPageCount()).toBe(sample.pages);
  expect(doc.catalog.keys().map((key) => key.decodeText())).toEqual(['Type', 'Pages']);
  expect(activeContentIn(bytes)).toEqual([]);
  // Still the document that was sent: every page shows its text.
  const text = pdfTextWithStreamsInflated(bytes);
  for (let page = 1; page <= sample.pages; page++) expect(text).toContain(pageText(sample.name, page));
}

/** The uploads that are refused, with the key of the reason the person reads. */
const refused: [string, () => Buffer, string][] = [
  ['an encrypted PDF', encryptedPdf, 'verification_pdf_encrypted'],
  [
    'a corrupt PDF',
    () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R\n\x00\xff garbage ]] >>\n%%EOF\n', 'latin1'),
    'verification_pdf_damaged',
  ],
  ['an object stream that inflates past the budget', () => inflationBomb(64), 'verification_pdf_damaged'],
  ['a page tree with 2^40 pages in a few lines', () => pageTreeBomb(40), 'verification_pdf_damaged'],
  ['more pages than allowed', () => samplePdf('long', { pages: PDF_MAX_PAGES + 1 }), 'verification_pdf_pages'],
  [
    'a script left where the rebuild copies it (a font the page uses)',
    () => samplePdf('font script', { font: '/AA << /O << /S /JavaScript /JS (app.alert\\(1\\)) >> >>' }),
    'verification_pdf_active',
  ],
];

/** pdf-lib warns on the console about each object it cannot read; the refused samples have some. */
function quietPdfLib() {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  return () => {
    warn.mockRestore();
    log.mockRestore();
  };
}

const storedFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};

describe('cleanPdf', () => {
  it('rebuilds every sample with its pages and nothing active, written without object streams', async () => {
    for (const sample of samples) {
      expect(activeContentIn(sample.bytes), sample.name).not.toEqual([]);
      await expectRebuiltClean(Buffer.from(await cleanPdf(sample.bytes)), sample);
    }
  });

  it('keeps what a page inherits from its page tree (media box, rotation, resources)', async () => {
    const bytes = samplePdf('inherited', {
      extra: {
        2:
          '<< /Type /Pages /Count 1 /Kids [10 0 R] /Rotate 90 /MediaBox [0 0 300 400] ' +
          '/Resources << /Font << /F1 3 0 R >> >> >>',
        10: '<< /Type /Page /Parent 2 0 R /Contents 11 0 R /Metadata 12 0 R /PieceInfo << >> /Thumb 12 0 R >>',
        12: stream('/Type /Metadata /Subtype /XML', '<x:xmpmeta>Ada Lovelace</x:xmpmeta>'),
      },
    });
    const clean = await PDFDocument.load(await cleanPdf(bytes));
    const [page] = clean.getPages();
    expect(page?.getRotation().angle).toBe(90);
    expect(page?.getMediaBox()).toEqual({ x: 0, y: 0, width: 300, height: 400 });
    expect(page?.node.Resources()?.get(PDFName.of('Font'))).toBeDefined();
    expect(page?.node.keys().map((key) => key.decodeText())).toEqual(
      expect.not.arrayContaining(['Metadata', 'PieceInfo', 'Thumb']),
    );
    expect(pdfTextWithStreamsInflated(await cleanPdf(bytes))).not.toContain('Ada Lovelace');
  });

  it('takes the minimal PDF the API tests upload (no cross-reference table, no content)', async () => {
    const minimal = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
        '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    const clean = await PDFDocument.load(await cleanPdf(minimal));
    expect(clean.getPageCount()).toBe(1);
    expect(clean.getPages()[0]?.node).toBeInstanceOf(PDFPageLeaf);
  });

  const reasonOf = async (bytes: Uint8Array) => {
    const error = await cleanPdf(bytes).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PdfRefused);
    return (error as PdfRefused).reason;
  };

  it('refuses what survives the rebuild, by the names a reader sees: an action in resources, an external stream', async () => {
    expect(await reasonOf(samplePdf('escaped', { font: '/Encoding << /X << /S /J#61vaScript >> >>' }))).toBe('active');
    // pdf-lib leaves a lower-case escape (#4a) as it is and writes its "#" as #23: in the stored
    // file the name reads "#4aavaScript" to any reader, not "JavaScript".
    const lower = await cleanPdf(samplePdf('lower', { font: '/Encoding << /X << /S /#4aavaScript >> >>' }));
    expect(Buffer.from(lower).toString('latin1')).toContain('/#234aavaScript');
    expect(activeContentIn(lower)).toEqual([]);
    expect(
      await reasonOf(
        samplePdf('external', {
          page: () => '/Resources << /Font << /F1 3 0 R >> /XObject << /Im 100 0 R >> >>',
          extra: {
            100: stream(
              '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 ' +
                '/F (\\\\\\\\evil\\\\share\\\\pixel.raw)',
              '\x00',
              { raw: true },
            ),
          },
        }),
      ),
    ).toBe('active');
  });

  it('refuses encrypted, damaged, empty and over-long documents with their reason', async () => {
    const restore = quietPdfLib();
    try {
      expect(await reasonOf(encryptedPdf())).toBe('encrypted');
      expect(await reasonOf(Buffer.from('%PDF-1.7\n%%EOF\n'))).toBe('damaged');
      expect(await reasonOf(samplePdf('empty', { extra: { 2: '<< /Type /Pages /Count 0 /Kids [] >>' } }))).toBe(
        'damaged',
      );
      expect(await reasonOf(samplePdf('long', { pages: PDF_MAX_PAGES + 1 }))).toBe('pages');
      expect(await cleanPdf(samplePdf('enough', { pages: PDF_MAX_PAGES }))).toBeInstanceOf(Uint8Array);
    } finally {
      restore();
    }
  });

  it(`stops inflating object streams at ${PDF_MAX_INFLATED_BYTES / 1024 / 1024} MiB per file, however many there are`, async () => {
    const restore = quietPdfLib();
    try {
      const bomb = inflationBomb(64); // 64 MiB in about 64 KB
      expect(bomb.length).toBeLessThan(100_000);
      const started = performance.now();
      expect(await reasonOf(bomb)).toBe('damaged');
      // Sixteen streams of 4 MiB: each is under the budget, together they are not.
      expect(await reasonOf(inflationBomb(64, 16))).toBe('damaged');
      expect(await cleanPdf(inflationBomb(8, 4))).toBeInstanceOf(Uint8Array);
      // Two at once keep their own budgets: each is refused, neither takes the other's room.
      const both = await Promise.allSettled([cleanPdf(bomb), cleanPdf(samples[0]?.bytes as Buffer)]);
      expect(both.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await reasonOf(pageTreeBomb(40))).toBe('damaged');
    } finally {
      restore();
    }
  });
});

describe('verification documents', () => {
  let t: TestApp;
  let owner: Browser;
  let moderator: Browser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await (await createUser(t)).signIn();
    moderator = await (await createUser(t, { role: 'moderator' })).signIn();
  });
  afterAll(() => t?.close());

  const upload = (bytes: Uint8Array) => {
    const body = new FormData();
    body.append('kind', 'proof_of_address');
    body.append('file', new File([new Uint8Array(bytes)], 'statement.pdf', { type: 'application/pdf' }));
    return owner.send('/rest/v1/verification/documents', { method: 'POST', body });
  };

  for (const sample of samples) {
    it(`stores a ${sample.name} sample rebuilt clean, as the moderator downloads it`, async () => {
      const res = await upload(sample.bytes);
      expect(res.status, await res.clone().text()).toBe(201);
      const doc = (await res.json()).data as { fileUrl: string; contentType: string };
      expect(doc.contentType).toBe('application/pdf');
      const file = await moderator.get(doc.fileUrl);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="proof_of_address.pdf"');
      await expectRebuiltClean(Buffer.from(await file.arrayBuffer()), sample);
    });
  }

  for (const [what, bytes, key] of refused) {
    it(`refuses ${what} and stores nothing`, async () => {
      const restore = quietPdfLib();
      const before = storedFiles(join(t.uploadsDir, 'verification'));
      try {
        const res = await upload(bytes());
        expect(res.status).toBe(400);
        const error = (await res.json()).errors[0];
        expect(error.field).toBe('file');
        expect(error.details[0].key).toBe(key);
        expect(storedFiles(join(t.uploadsDir, 'verification'))).toEqual(before);
      } finally {
        restore();
      }
    });
  }
});

describe('trade attachments', () => {
  let t: TestApp;
  let buyer: Browser;
  let vendor: Browser;
  let moderator: Browser;
  let trade: TradeData;
  beforeAll(async () => {
    t = await createTestApp();
    const f = tradeFixtures(t);
    ({ vendor, buyer } = await f.openMarket(1_000_000));
    trade = await f.startTrade(buyer, await f.createOffer(vendor));
    moderator = await (await createUser(t, { role: 'moderator' })).signIn();
  });
  afterAll(() => t?.close());

  const attach = (bytes: Uint8Array) => {
    const body = new FormData();
    body.append('files', new File([new Uint8Array(bytes)], 'proof.pdf', { type: 'application/pdf' }));
    return buyer.send(`/rest/v1/trade/${trade.hash}/attachments`, { method: 'POST', body });
  };

  for (const sample of samples) {
    it(`stores a ${sample.name} sample rebuilt clean, as the trade partner and a moderator download it`, async () => {
      const res = await attach(sample.bytes);
      expect(res.status, await res.clone().text()).toBe(201);
      const [message] = (await res.json()).data as { attachment: { url: string; contentType: string } }[];
      expect(message?.attachment.contentType).toBe('application/pdf');
      for (const reader of [vendor, moderator]) {
        const file = await reader.get(message?.attachment.url as string);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-disposition')).toMatch(/^attachment; /);
        await expectRebuiltClean(Buffer.from(await file.arrayBuffer()), sample);
      }
    });
  }

  for (const [what, bytes, key] of refused) {
    it(`refuses ${what} and stores nothing`, async () => {
      const restore = quietPdfLib();
      const before = storedFiles(join(t.uploadsDir, 'trades'));
      try {
        const res = await attach(bytes());
        expect(res.status).toBe(400);
        const error = (await res.json()).errors[0];
        expect(error.field).toBe('files');
        expect(error.details[0].key).toBe(key);
        expect(storedFiles(join(t.uploadsDir, 'trades'))).toEqual(before);
      } finally {
        restore();
      }
    });
  }
});
