import Foundation

extension CodeDetector {
  /// The verification code in `text`, or nil: among the masking candidates, the one nearest a
  /// word naming a code that nothing marks as a phone number, an amount, a date or time, or an
  /// order, account or tracking number (``CodeRules/Extraction``). Digits only for a digit
  /// code (`G-482913` → `482913`, `852-598` → `852598`), the token for a letter-digit one.
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
    guard let rules = rules.extraction, let words = tables.words else { return nil }
    let spans = spans(characters, tables)
    guard !spans.isEmpty else { return nil }
    var lower = characters.map(\.caseFolded)
    for phrase in words.ignoredPhrases {
      for range in Self.occurrences(of: phrase, in: lower) {
        for index in range { lower[index] = Unit.space }
      }
    }
    let keywords = words.keywords.flatMap { Self.occurrences(of: $0, in: lower) }
    guard !keywords.isEmpty else { return nil }
    var best: (distance: Int, value: String)?
    for span in spans {
      // The context check (`refused`, the costly part: every refusing word is looked for) runs
      // only for a span that would become the best: within the window and nearer than the
      // best so far (the first of equally near ones wins).
      let distance = keywords.map { Self.distance($0, span.range) }.min() ?? Int.max
      guard distance <= rules.window, distance < best?.distance ?? Int.max,
        let value = value(of: span, characters, rules),
        !refused(span.range, characters, lower, keywords: keywords, words, rules)
      else { continue }
      best = (distance, value)
    }
    return best?.value
  }

  /// The code a span stands for when its size fits, else nil.
  private func value<Unit: CodeTextUnit>(
    of span: Span, _ characters: [Unit], _ rules: CodeRules.Extraction
  ) -> String? {
    let written = characters[span.range]
    switch span.kind {
    case .letterDigit:
      return Unit.string(written)
    case .digits:
      let digits = Unit.string(written.filter(\.isASCIIDigit))
      guard (rules.minDigits...max(rules.minDigits, rules.maxDigits)).contains(digits.count)
      else { return nil }
      // A date shape: a year run, then short runs (`2024-05-12`).
      let runs = written.split { !$0.isASCIIDigit }.filter { !$0.isEmpty }
      if runs.count >= 2, let first = runs.first, first.count == 4,
        rules.dateYearPrefixes.contains(where: { Unit.string(first).hasPrefix($0) }),
        runs.dropFirst().allSatisfy({ $0.count <= 2 })
      {
        return nil
      }
      return digits
    }
  }

  /// Whether the context marks the span as another kind of number.
  private func refused<Unit: CodeTextUnit>(
    _ range: Range<Int>, _ characters: [Unit], _ lower: [Unit],
    keywords: [Range<Int>], _ words: CodeTextTables<Unit>.ExtractionWords,
    _ rules: CodeRules.Extraction
  ) -> Bool {
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
    // A word right after it (spaces skipped): 元, 年, %.
    var next = after
    while next < lower.count, lower[next] == Unit.space { next += 1 }
    let rest = lower[next..<min(lower.count, next + 8)]
    for word in words.refuseAfter where Self.hasPrefix(rest, word) { return true }
    // A word shortly before it, with no keyword between that word and it.
    let start = max(0, range.lowerBound - max(0, rules.refuseBeforeWindow))
    let window = Array(lower[start..<range.lowerBound])
    var refusedEnd = -1
    for word in words.refuseBefore {
      for found in Self.occurrences(of: word, in: window) {
        refusedEnd = max(refusedEnd, start + found.upperBound)
      }
    }
    guard refusedEnd >= 0 else { return false }
    let keywordEnd =
      keywords.filter { $0.upperBound <= range.lowerBound }.map(\.upperBound).max() ?? -1
    return refusedEnd > keywordEnd
  }

  static func hasPrefix<Unit: CodeTextUnit>(_ text: ArraySlice<Unit>, _ word: [Unit]) -> Bool {
    guard !word.isEmpty, text.count >= word.count else { return false }
    return text.prefix(word.count).elementsEqual(word)
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
