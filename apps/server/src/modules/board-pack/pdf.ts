import { existsSync } from "node:fs";
import PDFDocument from "pdfkit";
import type { BoardPack, BoardPackChart, BoardPackRow, BoardPackTable } from "@groupledger/domain";

/**
 * Draws the board pack's layout (the domain's `boardPackLayout`, every figure already text) into an
 * A4 PDF with pdfkit: a cover with the group's name and period, then each section in order, tables
 * repeating their headings on each page they run onto, the chart drawn as vectors, and a footer on
 * every page. Text is only ever placed as text (no markup is interpreted); long labels wrap within
 * their column.
 *
 * Font: DejaVu Sans when the system has it (every script QuickBooks names may use in Latin, Greek and
 * Cyrillic, and the currency signs), else the PDF's built-in Helvetica, which covers only Windows-1252:
 * other characters are then written as "?".
 */

const DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
const MARGIN = 40;
const INK = "#1f2933";
const MUTED = "#52606d";
const RULE = "#9aa5b1";
const SERIES_COLOURS = ["#1c7ed6", "#adb5bd"];

interface Fonts {
  regular: string;
  bold: string;
  /** Text the font can draw. */
  safe: (text: string) => string;
}

// Windows-1252's printable characters beyond Latin-1 (what the standard 14 fonts can draw).
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const winAnsi = (text: string) => [...text].map((ch) => ((ch >= " " && ch <= "~") || (ch >= "\u00a0" && ch <= "\u00ff") || WIN_ANSI_EXTRA.has(ch) ? ch : ch === "→" ? "->" : "?")).join("");

function fontsFor(doc: PDFKit.PDFDocument): Fonts {
  if (existsSync(DEJAVU) && existsSync(DEJAVU_BOLD)) {
    doc.registerFont("body", DEJAVU);
    doc.registerFont("bold", DEJAVU_BOLD);
    return { regular: "body", bold: "bold", safe: (t) => t };
  }
  return { regular: "Helvetica", bold: "Helvetica-Bold", safe: winAnsi };
}

export async function renderBoardPackPdf(pack: BoardPack, onSection?: (done: number, of: number) => Promise<void>): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN + 14, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `Board pack: ${pack.groupName}, ${pack.period.label}`, Author: "GroupLedger", Subject: `Consolidated statements in ${pack.currency}` },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  const fonts = fontsFor(doc);
  const width = doc.page.width - 2 * MARGIN;

  cover(doc, pack, fonts, width);
  let done = 0;
  for (const section of pack.sections) {
    doc.addPage();
    doc.font(fonts.bold).fontSize(15).fillColor(INK).text(fonts.safe(section.title), { width });
    doc.moveDown(0.3);
    doc.font(fonts.regular).fontSize(8.5).fillColor(MUTED).text(fonts.safe(section.intro), { width });
    doc.moveDown(0.8);
    for (const table of section.tables) drawTable(doc, table, fonts, width, table.caption !== section.title);
    if (section.chart) drawChart(doc, section.chart, fonts, width);
    for (const note of section.notes) {
      ensureRoom(doc, 24);
      doc.font(fonts.regular).fontSize(8.5).fillColor(INK).text(fonts.safe(note), MARGIN, doc.y, { width });
      doc.moveDown(0.4);
    }
    done += 1;
    await onSection?.(done, pack.sections.length);
  }
  footers(doc, pack, fonts, width);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

function cover(doc: PDFKit.PDFDocument, pack: BoardPack, fonts: Fonts, width: number) {
  doc.y = 200;
  doc.font(fonts.regular).fontSize(12).fillColor(MUTED).text("Board pack", MARGIN, doc.y, { width });
  doc.moveDown(0.5);
  doc.font(fonts.bold).fontSize(26).fillColor(INK).text(fonts.safe(pack.groupName), { width });
  doc.moveDown(0.4);
  doc.font(fonts.regular).fontSize(16).fillColor(INK).text(fonts.safe(pack.period.label), { width });
  doc.moveDown(0.3);
  doc.fontSize(10).fillColor(MUTED).text(`Consolidated figures in ${pack.currency}. Generated ${pack.generatedAt.slice(0, 16).replace("T", " ")} UTC by GroupLedger.`, { width });
  doc.moveDown(2);
  doc.font(fonts.bold).fontSize(11).fillColor(INK).text("Contents", { width });
  doc.moveDown(0.3);
  pack.sections.forEach((s, i) => doc.font(fonts.regular).fontSize(10).fillColor(INK).text(`${i + 1}. ${fonts.safe(s.title)}`, { width }));
}

const bottomOf = (doc: PDFKit.PDFDocument) => doc.page.height - doc.page.margins.bottom;
function ensureRoom(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= bottomOf(doc)) return false;
  doc.addPage();
  return true;
}

function drawTable(doc: PDFKit.PDFDocument, table: BoardPackTable, fonts: Fonts, width: number, withCaption: boolean) {
  const amountColumns = table.columns.length - 1;
  const pad = 4;
  // Amounts never wrap: the font shrinks (8.5 to 6 points) until the widest amount, in bold, fits
  // its column within 65 % of the width; the label column takes the rest and wraps.
  const cells = table.rows.flatMap((r) => r.cells.map(fonts.safe));
  let size = 8.5;
  let cellWidth = 0;
  for (; ; size -= 0.5) {
    doc.font(fonts.bold).fontSize(size);
    cellWidth = Math.max(48, ...cells.map((c) => doc.widthOfString(c))) + 2 * pad;
    if (cellWidth * amountColumns <= width * 0.65 || size <= 6) break;
  }
  // Text cells too wide even then wrap within an equal share of 75 % of the width.
  cellWidth = Math.min(cellWidth, (width * 0.75) / Math.max(1, amountColumns));
  const labelWidth = width - cellWidth * amountColumns;

  const header = () => {
    doc.font(fonts.bold).fontSize(size).fillColor(MUTED);
    const heights = table.columns.map((c, i) => doc.heightOfString(fonts.safe(c), { width: (i === 0 ? labelWidth : cellWidth) - pad }));
    const h = Math.max(...heights, size + 2);
    ensureRoom(doc, h + 20);
    const y = doc.y;
    table.columns.forEach((c, i) => {
      const x = i === 0 ? MARGIN : MARGIN + labelWidth + cellWidth * (i - 1);
      doc.text(fonts.safe(c), x, y, { width: (i === 0 ? labelWidth : cellWidth) - pad, align: i === 0 ? "left" : "right" });
    });
    doc.y = y + h + 2;
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.6).strokeColor(RULE).stroke();
    doc.y += 3;
  };

  if (withCaption) {
    ensureRoom(doc, 40);
    doc.font(fonts.bold).fontSize(10).fillColor(INK).text(fonts.safe(table.caption), MARGIN, doc.y, { width });
    doc.moveDown(0.2);
  }
  header();
  for (const row of table.rows) drawRow(doc, row, fonts, { labelWidth, cellWidth, size, pad, width }, header);
  doc.moveDown(0.8);
}

function drawRow(
  doc: PDFKit.PDFDocument,
  row: BoardPackRow,
  fonts: Fonts,
  g: { labelWidth: number; cellWidth: number; size: number; pad: number; width: number },
  header: () => void,
) {
  const strong = row.kind !== "line";
  doc.font(strong ? fonts.bold : fonts.regular).fontSize(row.kind === "heading" ? g.size + 0.5 : g.size).fillColor(INK);
  const label = fonts.safe(row.label);
  const indent = row.kind === "line" ? 8 : 0;
  const heights = [doc.heightOfString(label, { width: g.labelWidth - g.pad - indent }), ...row.cells.map((c) => doc.heightOfString(fonts.safe(c), { width: g.cellWidth - g.pad }))];
  const h = Math.max(...heights);
  if (doc.y + h + 4 > bottomOf(doc)) {
    doc.addPage();
    header();
    doc.font(strong ? fonts.bold : fonts.regular).fontSize(row.kind === "heading" ? g.size + 0.5 : g.size).fillColor(INK);
  }
  if (row.kind === "heading") doc.y += 3;
  const y = doc.y;
  if (row.kind === "subtotal" || row.kind === "total") {
    doc.moveTo(MARGIN + g.labelWidth, y - 1).lineTo(MARGIN + g.width, y - 1).lineWidth(0.4).strokeColor(RULE).stroke();
  }
  doc.text(label, MARGIN + indent, y, { width: g.labelWidth - g.pad - indent });
  row.cells.forEach((c, i) => doc.text(fonts.safe(c), MARGIN + g.labelWidth + g.cellWidth * i, y, { width: g.cellWidth - g.pad, align: "right" }));
  doc.y = y + h + (row.kind === "total" ? 4 : 2);
  doc.x = MARGIN;
}

function drawChart(doc: PDFKit.PDFDocument, chart: BoardPackChart, fonts: Fonts, width: number) {
  const barHeight = 12;
  const groupGap = 12;
  const labelWidth = 95;
  const textWidth = 95;
  const plot = width - labelWidth - textWidth;
  const height = chart.groups.length * (chart.series.length * (barHeight + 2) + groupGap) + 40;
  ensureRoom(doc, height);
  // The legend.
  let x = MARGIN;
  const legendY = doc.y;
  chart.series.forEach((s, i) => {
    doc.rect(x, legendY + 1, 9, 9).fillColor(SERIES_COLOURS[i % SERIES_COLOURS.length]!).fill();
    doc.font(fonts.regular).fontSize(8.5).fillColor(INK).text(fonts.safe(s), x + 13, legendY, { lineBreak: false });
    x += 13 + doc.widthOfString(fonts.safe(s)) + 18;
  });
  doc.y = legendY + 22;
  // Bars from a zero line placed so negative values extend left of it.
  const values = chart.groups.flatMap((g) => g.values);
  const max = Math.max(1, ...values.map((v) => Math.max(0, v)));
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const zero = MARGIN + labelWidth + (plot * -min) / span;
  const top = doc.y;
  for (const group of chart.groups) {
    const y0 = doc.y;
    doc.font(fonts.bold).fontSize(8.5).fillColor(INK).text(fonts.safe(group.label), MARGIN, y0 + 2, { width: labelWidth - 6 });
    group.values.forEach((v, i) => {
      const y = y0 + i * (barHeight + 2);
      const length = (plot * Math.abs(v)) / span;
      const left = v < 0 ? zero - length : zero;
      doc.rect(left, y, Math.max(length, 0.5), barHeight).fillColor(SERIES_COLOURS[i % SERIES_COLOURS.length]!).fill();
      doc.font(fonts.regular).fontSize(7.5).fillColor(INK).text(fonts.safe(group.texts[i] ?? ""), MARGIN + labelWidth + plot + 4, y + 2, { width: textWidth - 4, align: "right", lineBreak: false });
    });
    doc.y = y0 + group.values.length * (barHeight + 2) + groupGap;
  }
  doc.moveTo(zero, top - 4).lineTo(zero, doc.y - groupGap + 4).lineWidth(0.6).strokeColor(INK).stroke();
  doc.x = MARGIN;
  doc.moveDown(0.5);
}

function footers(doc: PDFKit.PDFDocument, pack: BoardPack, fonts: Fonts, width: number) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN;
    // Writing inside the bottom margin must not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(fonts.regular)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(fonts.safe(`${pack.groupName} · Board pack · ${pack.period.label} · page ${i + 1} of ${range.count}`), MARGIN, y, { width, align: "center", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}
