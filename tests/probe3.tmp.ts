import { HistoryIndex } from '../src/main/runtime/history/history-index'
import { transcriptDocuments } from '../src/main/runtime/history/documents'
const index = new HistoryIndex()
const texts = ['Task 1234: read src/scan-1234.ts', 'END-OF-HISTORY-MARKER here', 'read_file said café', 'Über große Dinge', 'foo.bar(baz) = 42', '日本語のテキスト']
texts.forEach((text, i) => transcriptDocuments('alice', { v: 1, seq: i + 1, at: 1, kind: 'user', from: 'user', text }).forEach((d) => index.add(d)))
for (const q of ['scan-1234', 'scan 1234', '1234', 'history marker', 'hist', 'read_file', 'cafe', 'café', 'über', 'grosse', 'bar', 'baz 42', 'テキスト', '日本']) {
  const r = index.search({ text: q })
  console.log(JSON.stringify(q), r.total, r.groups[0]?.hits.map((h) => `${h.snippet} ${JSON.stringify(h.highlights)}`).join(' | '))
}
