import Foundation

extension CodeDetector {
  /// The verification code in `text`, or nil (``CodeRules/Extraction``), tried in this order:
  ///
  /// 1. an origin-bound line, the format browsers and phones read (`@example.com #482913`);
  /// 2. among the masking candidates, the one nearest a word naming a code — within
  ///    `window` characters, or further in the same sentence when a copula introduces it
  ///    (`OTP for … INR 2,450.00 at AMAZON is 774129`) — that nothing marks as a phone
  ///    number, an amount, a date or time, an order, account or tracking number, or the
  ///    sender's signature (`【12306】`);
  /// 3. with no such word, a candidate standing as a clause of its own in a message that says
  ///    what it is for and guards it (`您正在登录，583920，5分钟内有效，请勿泄露`).
  ///
  /// Digits only for a digit code, in ASCII (`G-482913` → `482913`, `852-598` → `852598`,
  /// `１２３４５６` → `123456`), the token for a letter-digit one (`A7K9Q2`).
  ///
  /// Walks the text by Unicode scalar when ``CodeTextScalars/simple(_:)`` accepts it (nearly
  /// every SMS), else by `Character`; both walks give the same answer
  /// (``referenceCode(in:)``).
  public func code(in text: String) -> String? {
    if let scalarTables, let scalars = CodeTextScalars.simple(text) {
      return code(in: scalars, scalarTables)
    }
    return code(in: Array(text), characterTables)
  }

  /// ``code(in:)`` by the walk by `Character` alone, whatever the text: the reference the
  /// cheaper walk by scalar is tested against.
  public func referenceCode(in text: String) -> String? {
    code(in: Array(text), characterTables)
  }

  func code<Unit: CodeTextUnit>(in characters: [Unit], _ tables: CodeTextTables<Unit>)
    -> String?
  {
    guard let words = tables.words else { return nil }
    let spans = spans(characters, tables)
    guard !spans.isEmpty else { return nil }
    var lower = characters.map(\.caseFolded)
    for range in words.ignoredPhraseSet.occurrences(in: lower) {
      for index in range { lower[index] = Unit.space }
    }
    let text = CodeText(
      characters: characters, lower: lower, words: words,
      keywords: words.keywordSet.occurrences(in: lower))
    if let span = text.originBound(spans), let value = value(of: span, characters, words) {
      return value
    }
    let signatures = text.signatures()
    let candidates = spans.filter { span in
      !signatures.contains {
        $0.lowerBound <= span.range.lowerBound && span.range.upperBound <= $0.upperBound
      }
    }
    if !text.keywords.isEmpty, let value = nearestToKeyword(candidates, text) { return value }
    return keywordless(candidates, text)
  }

  /// Step 2: the candidate nearest a keyword.
  private func nearestToKeyword<Unit: CodeTextUnit>(_ spans: [Span], _ text: CodeText<Unit>)
    -> String?
  {
    let window = text.words.window
    var best: (distance: Int, value: String)?
    for span in spans {
      // The context check (`refused`, the costly part: every refusing word is looked for) runs
      // only for a span that would become the best: within reach and nearer than the best so
      // far (the first of equally near ones wins). One a copula introduces counts as at the
      // edge of the window.
      var distance = text.keywords.map { Self.distance($0, span.range) }.min() ?? Int.max
      if distance > window, text.isIntroducedInItsSentence(span.range) {
        distance = window
      }
      guard distance <= window, distance < best?.distance ?? Int.max,
        let value = value(of: span, text.characters, text.words), !text.refused(span.range)
      else { continue }
      best = (distance, value)
    }
    return best?.value
  }

  /// Step 3: a candidate standing alone in a message that says what it is for and guards it.
  private func keywordless<Unit: CodeTextUnit>(_ spans: [Span], _ text: CodeText<Unit>)
    -> String?
  {
    guard let rules = text.words.keywordless else { return nil }
    let characters = text.characters
    // The cheap test first: most messages have no candidate standing alone.
    let alone = spans.filter { span in
      let before = span.range.lowerBound - 1
      let after = span.range.upperBound
      return (before < 0 || rules.delimiters.contains(characters[before]))
        && (after >= characters.count || rules.delimiters.contains(characters[after]))
    }
    guard !alone.isEmpty,
      rules.assurances.occurs(in: text.lower), rules.actions.occurs(in: text.lower)
    else { return nil }
    for span in alone {
      guard let value = value(of: span, characters, text.words), !text.refused(span.range)
      else { continue }
      return value
    }
    return nil
  }

  /// The code a span stands for when its size fits, else nil.
  private func value<Unit: CodeTextUnit>(
    of span: Span, _ characters: [Unit], _ rules: CodeTextTables<Unit>.ExtractionWords
  ) -> String? {
    let written = characters[span.range]
    switch span.kind {
    case .letterDigit:
      return Unit.string(written.map { $0.asciiDigit ?? $0 })
    case .digits:
      let digits = Unit.string(written.compactMap(\.asciiDigit))
      guard (rules.minDigits...max(rules.minDigits, rules.maxDigits)).contains(digits.count)
      else { return nil }
      // A date shape: a year run, then short runs (`2024-05-12`).
      let runs = written.split { !$0.isCodeDigit }.filter { !$0.isEmpty }
      if runs.count >= 2, let first = runs.first, first.count == 4,
        rules.dateYearPrefixes.contains(where: {
          Unit.string(first.compactMap(\.asciiDigit)).hasPrefix($0)
        }),
        runs.dropFirst().allSatisfy({ $0.count <= 2 })
      {
        return nil
      }
      return digits
    }
  }

  static func hasPrefix<Unit: CodeTextUnit>(_ text: ArraySlice<Unit>, _ word: [Unit]) -> Bool {
    guard !word.isEmpty, text.count >= word.count else { return false }
    return text.prefix(word.count).elementsEqual(word)
  }

  static func hasSuffix<Unit: CodeTextUnit>(_ text: ArraySlice<Unit>, _ word: [Unit]) -> Bool {
    guard !word.isEmpty, text.count >= word.count else { return false }
    return text.suffix(word.count).elementsEqual(word)
  }

  /// Where `word` (lowercased, ``CodeTextTables/ExtractionWords``) occurs in `text`; a word
  /// starting or ending with an ASCII letter matches only where no ASCII letter adjoins that
  /// end.
  static func occurrences<Unit: CodeTextUnit>(of word: [Unit], in text: [Unit]) -> [Range<Int>] {
    guard let first = word.first, let last = word.last, word.count <= text.count else { return [] }
    func isLetter(_ index: Int) -> Bool {
      index >= 0 && index < text.count && text[index].isASCIILetter
    }
    let checksStart = first.isASCIILetter
    let checksEnd = last.isASCIILetter
    var found: [Range<Int>] = []
    var index = 0
    while index + word.count <= text.count {
      if text[index] == first, text[index..<index + word.count].elementsEqual(word),
        !(checksStart && isLetter(index - 1)), !(checksEnd && isLetter(index + word.count))
      {
        found.append(index..<index + word.count)
      }
      index += 1
    }
    return found
  }

  /// Characters between a keyword and a candidate (0 when they touch or overlap).
  static func distance(_ keyword: Range<Int>, _ candidate: Range<Int>) -> Int {
    if keyword.upperBound <= candidate.lowerBound {
      return candidate.lowerBound - keyword.upperBound
    }
    if candidate.upperBound <= keyword.lowerBound {
      return keyword.lowerBound - candidate.upperBound
    }
    return 0
  }
}

/// One text being read for its code: its units, lowercased with ignored phrases blanked, the
/// rules in those units, and where the keywords are. A class: the closures of its methods
/// capture one reference instead of copying four arrays' references each time.
final class CodeText<Unit: CodeTextUnit> {
  let characters: [Unit]
  let lower: [Unit]
  let words: CodeTextTables<Unit>.ExtractionWords
  let keywords: [Range<Int>]

  init(
    characters: [Unit], lower: [Unit], words: CodeTextTables<Unit>.ExtractionWords,
    keywords: [Range<Int>]
  ) {
    self.characters = characters
    self.lower = lower
    self.words = words
    self.keywords = keywords
  }

  private func unit(_ index: Int) -> Unit? {
    index >= 0 && index < characters.count ? characters[index] : nil
  }

  private func isSpace(_ unit: Unit?) -> Bool {
    unit == Unit.space || unit == Unit.newline || unit == Unit.tab
  }

  // MARK: - Origin-bound codes

  /// The candidate of an origin-bound line (`@example.com #482913`, optionally followed by
  /// ` %other.example`): `@` at the start of a line or after a space, a host of ASCII
  /// letters, digits, dots and hyphens with a dot in it, one space, `#`, the candidate, then
  /// the end of the line or a space.
  func originBound(_ spans: [CodeDetector.Span]) -> CodeDetector.Span? {
    for span in spans {
      let start = span.range.lowerBound
      guard unit(start - 1) == Unit.hash, unit(start - 2) == Unit.space else { continue }
      let end = span.range.upperBound
      guard end == characters.count || isSpace(characters[end]) else { continue }
      var index = start - 3
      var hasDot = false
      while let current = unit(index),
        current.isASCIILetter || current.isASCIIDigit
          || current == Unit.dot || current == Unit.hyphen
      {
        if current == Unit.dot { hasDot = true }
        index -= 1
      }
      guard hasDot, index < start - 3, unit(index) == Unit.at,
        index == 0 || isSpace(unit(index - 1))
      else { continue }
      return span
    }
    return nil
  }

  // MARK: - Signatures

  /// The insides of the bracket pairs that open and close the text (spaces aside) when no
  /// keyword is in them: the sender's signature (`【12306】`).
  func signatures() -> [Range<Int>] {
    CodeDetector.signatures(characters, words) { isSpace($0) }.filter { inside in
      !keywords.contains { $0.lowerBound < inside.upperBound && inside.lowerBound < $0.upperBound }
    }
  }

  // MARK: - Sentences

  /// Whether a copula right before `range` (spaces skipped) introduces it and a keyword ends
  /// before it in its sentence, at most `sentenceWindow` characters away.
  func isIntroducedInItsSentence(_ range: Range<Int>) -> Bool {
    var end = range.lowerBound
    while end > 0, lower[end - 1] == Unit.space { end -= 1 }
    let before = lower[..<end]
    let introduced = words.copulas.contains { copula in
      guard CodeDetector.hasSuffix(before, copula) else { return false }
      // An ASCII word is whole: `this` does not end with the copula `is`.
      guard let first = copula.first, first.isASCIILetter else { return true }
      let previous = end - copula.count - 1
      return previous < 0 || !lower[previous].isASCIILetter
    }
    guard introduced else { return false }
    let start = sentenceStart(before: range.lowerBound)
    return keywords.contains { keyword in
      keyword.lowerBound >= start && keyword.upperBound <= range.lowerBound
        && range.lowerBound - keyword.upperBound <= words.sentenceWindow
    }
  }

  /// Where the sentence holding `index` starts: after the last sentence end before it (a
  /// full stop only when a space follows it and no digit follows the spaces: `Rs. 1,299` is
  /// one sentence).
  private func sentenceStart(before index: Int) -> Int {
    var position = index - 1
    while position >= 0 {
      let current = characters[position]
      if words.sentenceEnds.contains(current) { return position + 1 }
      if current == Unit.dot, isSpace(unit(position + 1)) {
        var next = position + 1
        while isSpace(unit(next)) { next += 1 }
        if !(unit(next)?.isCodeDigit ?? false) { return position + 1 }
      }
      position -= 1
    }
    return 0
  }

  // MARK: - Refusals

  /// Whether the context marks the span as another kind of number.
  func refused(_ range: Range<Int>) -> Bool {
    let joiners = words.joiners
    func isDigit(_ index: Int) -> Bool {
      index >= 0 && index < characters.count && characters[index].isNumber
    }
    let before = range.lowerBound - 1
    let after = range.upperBound
    if before >= 0, joiners.contains(characters[before]), isDigit(before - 1) { return true }
    if after < characters.count, joiners.contains(characters[after]), isDigit(after + 1) {
      return true
    }
    if before >= 0, characters[before] == Unit.plus || characters[before] == Unit.fullwidthPlus {
      return true
    }
    // A word right after it (spaces skipped): 元, 年, %; not 时效 or 点此.
    var next = after
    while next < lower.count, lower[next] == Unit.space { next += 1 }
    let rest = lower[next..<min(lower.count, next + 8)]
    if words.refuseAfter.contains(where: { CodeDetector.hasPrefix(rest, $0) }),
      !words.allowAfter.contains(where: { CodeDetector.hasPrefix(rest, $0) })
    {
      return true
    }
    // A word right before it (spaces and colons skipped): 号.
    var end = range.lowerBound
    while end > 0,
      lower[end - 1] == Unit.space || lower[end - 1] == Unit.colon
        || lower[end - 1] == Unit.fullwidthColon
    {
      end -= 1
    }
    // Unless a keyword ends there (`暗号 4821`).
    if words.refuseJustBefore.contains(where: { CodeDetector.hasSuffix(lower[..<end], $0) }),
      !keywords.contains(where: { $0.upperBound == end })
    {
      return true
    }
    if isYearAfterMonth(range) { return true }
    // A word shortly before it in its clause, with no keyword between that word and it.
    var start = max(0, range.lowerBound - max(0, words.refuseBeforeWindow))
    if let lastBreak = lower[start..<range.lowerBound].lastIndex(where: words.clauseBreaks.contains)
    {
      start = lastBreak + 1
    }
    let window = Array(lower[start..<range.lowerBound])
    var refusedEnd = -1
    for word in words.refuseBefore {
      for found in CodeDetector.occurrences(of: word, in: window) {
        refusedEnd = max(refusedEnd, start + found.upperBound)
      }
    }
    guard refusedEnd >= 0 else { return false }
    let keywordEnd =
      keywords.filter { $0.upperBound <= range.lowerBound }.map(\.upperBound).max() ?? -1
    return refusedEnd > keywordEnd
  }

  /// A four-digit year after a month name, a day between them or not (`12 May 2024`,
  /// `May 12, 2024`).
  private func isYearAfterMonth(_ range: Range<Int>) -> Bool {
    guard range.count == 4, !words.months.isEmpty, range.lowerBound > 0,
      !lower[range.lowerBound - 1].isCodeDigit
    else { return false }
    func skipSeparators(_ index: inout Int) {
      while index > 0,
        lower[index - 1] == Unit.space || lower[index - 1] == Unit.comma
          || lower[index - 1] == Unit.dot
      {
        index -= 1
      }
    }
    var end = range.lowerBound
    skipSeparators(&end)
    var day = end
    while day > 0, lower[day - 1].isASCIIDigit, end - day < 3 { day -= 1 }
    if day < end, end - day <= 2 {
      end = day
      skipSeparators(&end)
    }
    // A month name is made of letters: nothing else is looked at when none comes before.
    guard end > 0, lower[end - 1].isASCIILetter,
      words.months.contains(where: { month in
        CodeDetector.hasSuffix(lower[..<end], month)
          && (end - month.count == 0 || !lower[end - month.count - 1].isASCIILetter)
      })
    else { return false }
    let year = Unit.string(characters[range].compactMap(\.asciiDigit))
    return words.dateYearPrefixes.contains { year.hasPrefix($0) }
  }
}

/// Words looked for together (the keywords, the ignored phrases): one walk over a text finds
/// every occurrence of any of them, with ``CodeDetector/occurrences(of:in:)``'s rule for
/// ASCII words. A unit whose ``CodeTextUnit/quickBits`` no first unit has is passed over
/// without comparing it to any word.
struct CodeWordSet<Unit: CodeTextUnit>: Sendable {
  let words: [[Unit]]
  private let firstBits: UInt64

  init(_ words: [[Unit]]) {
    self.words = words.filter { !$0.isEmpty }
    firstBits = self.words.reduce(0) { $0 | ($1.first?.quickBits ?? 0) }
  }

  /// Every occurrence of every word, by where it starts.
  func occurrences(in text: [Unit]) -> [Range<Int>] {
    var found: [Range<Int>] = []
    walk(text) { range in
      found.append(range)
      return true
    }
    return found
  }

  /// Whether one of the words occurs.
  func occurs(in text: [Unit]) -> Bool {
    var any = false
    walk(text) { _ in
      any = true
      return false
    }
    return any
  }

  /// Calls `found` with each occurrence until it returns false.
  private func walk(_ text: [Unit], _ found: (Range<Int>) -> Bool) {
    guard !words.isEmpty else { return }
    func isLetter(_ index: Int) -> Bool {
      index >= 0 && index < text.count && text[index].isASCIILetter
    }
    for index in text.indices where text[index].quickBits & firstBits != 0 {
      let unit = text[index]
      for word in words where word[0] == unit && index + word.count <= text.count {
        let end = index + word.count
        guard text[index..<end].elementsEqual(word),
          !(unit.isASCIILetter && isLetter(index - 1)),
          !(word[word.count - 1].isASCIILetter && isLetter(end))
        else { continue }
        if !found(index..<end) { return }
      }
    }
  }
}
