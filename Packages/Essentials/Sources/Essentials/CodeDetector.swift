import Foundation

/// What a verification code looks like, as data: `Resources/CodeRules.json`.
///
/// The one description of a code that every part reads: masking hides each candidate the
/// rules find, and code extraction picks among the same candidates.
public struct CodeRules: Codable, Sendable, Equatable {
  /// Runs of digits joined by separators.
  public struct DigitGroups: Codable, Sendable, Equatable {
    /// A character that joins two digit runs into one group.
    public struct Separator: Codable, Sendable, Equatable {
      /// The joining character.
      public var character: String
      /// It joins only runs with at least this many digits on both sides.
      public var minPartDigits: Int

      /// A separator.
      public init(character: String, minPartDigits: Int) {
        self.character = character
        self.minPartDigits = minPartDigits
      }
    }

    /// A group with at least this many digits is a candidate.
    public var minDigits: Int
    /// The joining characters.
    public var separators: [Separator]

    /// Digit group rules.
    public init(minDigits: Int, separators: [Separator]) {
      self.minDigits = minDigits
      self.separators = separators
    }
  }

  /// Tokens of capital letters and digits.
  public struct LetterDigitCodes: Codable, Sendable, Equatable {
    /// Shortest token.
    public var minLength: Int
    /// Longest token.
    public var maxLength: Int
    /// Fewest digits in it.
    public var minDigits: Int
    /// Fewest letters in it.
    public var minLetters: Int
    /// Fewest runs of letters and of digits in it: 3 makes a word followed by a number
    /// (`SAVE20`, `CA1831`, `G482913`) no code, its long enough digit run a digit candidate.
    public var minRuns: Int

    /// Letter-digit rules.
    public init(minLength: Int, maxLength: Int, minDigits: Int, minLetters: Int, minRuns: Int = 1) {
      self.minLength = minLength
      self.maxLength = maxLength
      self.minDigits = minDigits
      self.minLetters = minLetters
      self.minRuns = minRuns
    }
  }

  /// Which candidates are a message's verification code (see `CodeRules.json`'s own
  /// description of each key).
  public struct Extraction: Codable, Sendable, Equatable {
    /// Codes named by their sentence rather than by a word near them: a message with no
    /// keyword whose candidate stands as a clause of its own (`您正在登录，583920，5分钟内有效，
    /// 请勿泄露`).
    public struct Keywordless: Codable, Sendable, Equatable {
      /// Words of what the code is for (`登录`, `注册`, `取件`); one must occur.
      public var actions: [String]
      /// Words that guard a code (`有效`, `泄露`); one must occur.
      public var assurances: [String]
      /// Characters that end a clause (`，`, `。`, `】`, a space): one on each side of the
      /// candidate, or the start or end of the text.
      public var delimiters: [String]

      /// Keyword-less rules.
      public init(actions: [String], assurances: [String], delimiters: [String]) {
        self.actions = actions
        self.assurances = assurances
        self.delimiters = delimiters
      }
    }

    /// Words that name a code (`验证码`, `code`); ASCII ones match whole words only.
    public var keywords: [String]
    /// Phrases blanked before keywords are looked for (`promo code`).
    public var ignoredPhrases: [String]
    /// Most characters between a keyword and its code.
    public var window: Int
    /// Fewest digits in a digit code.
    public var minDigits: Int
    /// Most digits in a digit code (a phone number has more).
    public var maxDigits: Int
    /// How many characters before a candidate ``refuseBefore`` looks at.
    public var refuseBeforeWindow: Int
    /// Words that make the number after them another kind (`尾号`, `order`, `¥`).
    public var refuseBefore: [String]
    /// Words that make the number before them another kind (`元`, `年`, `%`).
    public var refuseAfter: [String]
    /// Characters that join a number to a digit in an amount, a date or a time.
    public var joiners: [String]
    /// How a year starts, for date-shaped groups (`2024-05-12`).
    public var dateYearPrefixes: [String]
    /// Words that make the number right after them (spaces and colons skipped) another kind
    /// (`号`: `QQ号28391045`).
    public var refuseJustBefore: [String]
    /// Words right after a number that start with a ``refuseAfter`` word but do not refuse it
    /// (`时效`, `点此`: `482913 时效5分钟` is a code, `8点` an hour).
    public var allowAfter: [String]
    /// Month names (lowercased): a year after one (`12 May 2024`) is a date.
    public var months: [String]
    /// Words that introduce what they name (`is`, `：`, `是`): a candidate right after one is
    /// within reach of a keyword earlier in its sentence up to ``sentenceWindow`` characters
    /// (`OTP for … INR 2,450.00 at AMAZON is 774129`).
    public var copulas: [String]
    /// Most characters between a keyword and a candidate a copula introduces.
    public var sentenceWindow: Int
    /// Characters that end a sentence (a full stop does when a space and no digit follow it).
    public var sentenceEnds: [String]
    /// Characters that end a clause: a ``refuseBefore`` word in an earlier clause does not
    /// refuse (`您正在注册得物账号，729013，10分钟内有效`).
    public var clauseBreaks: [String]
    /// Bracket pairs (two characters, `【】`) that hold the sender's signature when they open
    /// the text: a number inside one with no keyword is a brand (`【12306】`), not a code.
    public var signaturesAtStart: [String]
    /// The same for the pairs that close the text (`…请勿泄露。【12306】`).
    public var signaturesAtEnd: [String]
    /// Codes named by their sentence; nil: every code needs a keyword.
    public var keywordless: Keywordless?

    /// Extraction rules.
    public init(
      keywords: [String], ignoredPhrases: [String], window: Int, minDigits: Int, maxDigits: Int,
      refuseBeforeWindow: Int, refuseBefore: [String], refuseAfter: [String], joiners: [String],
      dateYearPrefixes: [String], refuseJustBefore: [String] = [], allowAfter: [String] = [],
      months: [String] = [], copulas: [String] = [], sentenceWindow: Int = 0,
      sentenceEnds: [String] = [], clauseBreaks: [String] = [], signaturesAtStart: [String] = [],
      signaturesAtEnd: [String] = [], keywordless: Keywordless? = nil
    ) {
      self.keywords = keywords
      self.ignoredPhrases = ignoredPhrases
      self.window = window
      self.minDigits = minDigits
      self.maxDigits = maxDigits
      self.refuseBeforeWindow = refuseBeforeWindow
      self.refuseBefore = refuseBefore
      self.refuseAfter = refuseAfter
      self.joiners = joiners
      self.dateYearPrefixes = dateYearPrefixes
      self.refuseJustBefore = refuseJustBefore
      self.allowAfter = allowAfter
      self.months = months
      self.copulas = copulas
      self.sentenceWindow = sentenceWindow
      self.sentenceEnds = sentenceEnds
      self.clauseBreaks = clauseBreaks
      self.signaturesAtStart = signaturesAtStart
      self.signaturesAtEnd = signaturesAtEnd
      self.keywordless = keywordless
    }
  }

  /// Bumped whenever a rule changes, so stored results can be recomputed.
  public var version: Int
  /// What replaces each masked letter or digit.
  public var maskCharacter: String
  /// Digit runs and groups.
  public var digitGroups: DigitGroups
  /// Letter-digit tokens.
  public var letterDigitCodes: LetterDigitCodes
  /// Which candidate is the code; nil: no extraction (masking only).
  public var extraction: Extraction?

  /// Rules.
  public init(
    version: Int, maskCharacter: String, digitGroups: DigitGroups,
    letterDigitCodes: LetterDigitCodes, extraction: Extraction? = nil
  ) {
    self.version = version
    self.maskCharacter = maskCharacter
    self.digitGroups = digitGroups
    self.letterDigitCodes = letterDigitCodes
    self.extraction = extraction
  }

  /// The rules shipped in `CodeRules.json`, compiled into the program.
  public static let bundled: CodeRules =
    (try? JSONDecoder().decode(CodeRules.self, from: Data(PackageResources.CodeRules_json)))
    ?? fallback

  /// Used only if the bundled file cannot be read (a build defect a test catches): the four
  /// digits rule masking has always had.
  static let fallback = CodeRules(
    version: 0, maskCharacter: "•", digitGroups: DigitGroups(minDigits: 4, separators: []),
    letterDigitCodes: LetterDigitCodes(minLength: 4, maxLength: 10, minDigits: 2, minLetters: 1))
}

/// A code-like part of a text, found by ``CodeDetector``.
public struct CodeCandidate: Sendable, Equatable {
  /// What kind of rule found it.
  public enum Kind: String, Sendable, Equatable {
    /// Digits, possibly in runs joined by separators (`482913`, `852-598`, `G-482913`).
    case digits
    /// A token of capital letters and digits (`A7K9Q2`).
    case letterDigit
  }

  /// Offsets of its first and past-its-last character in the text's `Character`s.
  public var range: Range<Int>
  /// The rule that found it.
  public var kind: Kind
  /// The candidate as written (`852-598`).
  public var text: String
  /// Its letters and digits without separators (`852598`).
  public var value: String
}

/// Finds code-like parts of a text with ``CodeRules``, and masks them.
///
/// It walks a text by `Character`, or — far cheaper, with the same answers — by Unicode scalar
/// when every scalar of the text is a character of its own that no other scalar equals
/// (``CodeTextScalars``): nearly every SMS, Chinese or English.
public struct CodeDetector: Sendable {
  /// The rules.
  public let rules: CodeRules
  private let mask: String
  /// The rules' separators and words for the walk by `Character`.
  let characterTables: CodeTextTables<Character>
  /// The same for the walk by scalar; nil when a rule's character is not one simple scalar
  /// (then every text is walked by `Character`).
  let scalarTables: CodeTextTables<Unicode.Scalar>?
  /// The mask character as one simple scalar, for masking by scalar; nil: masking walks every
  /// text by `Character`.
  let maskScalar: Unicode.Scalar?

  /// A detector for `rules`.
  public init(rules: CodeRules) {
    self.rules = rules
    self.mask = rules.maskCharacter.isEmpty ? "•" : rules.maskCharacter
    let characterTables = CodeTextTables<Character>(rules)
    self.characterTables = characterTables
    self.scalarTables = characterTables.map(CodeTextScalars.scalar(of:))
    self.maskScalar = mask.count == 1 ? mask.first.flatMap(CodeTextScalars.scalar(of:)) : nil
  }

  /// The detector with the bundled rules.
  public static let standard = CodeDetector(rules: .bundled)

  /// A run of ASCII letters and digits (ASCII or full-width: `１２３４`).
  struct Token {
    var start: Int
    var end: Int
    var digits = 0
    var letters = 0
    var hasLowercase = false
    var hasUppercase = false
    /// Runs of letters and of digits (`A7K9Q2`: 6, `SAVE20`: 2).
    var runs = 0
    var isDigits: Bool { letters == 0 }
  }

  static func tokens<Unit: CodeTextUnit>(_ characters: [Unit]) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    while index < characters.count {
      guard characters[index].isTokenUnit else {
        index += 1
        continue
      }
      var token = Token(start: index, end: index)
      var lastWasDigit: Bool?
      while index < characters.count, characters[index].isTokenUnit {
        let isDigit = characters[index].isCodeDigit
        if isDigit {
          token.digits += 1
        } else {
          token.letters += 1
          if characters[index].isLowercase {
            token.hasLowercase = true
          } else {
            token.hasUppercase = true
          }
        }
        if lastWasDigit != isDigit { token.runs += 1 }
        lastWasDigit = isDigit
        index += 1
      }
      token.end = index
      tokens.append(token)
    }
    return tokens
  }

  /// Every candidate in `text`, in order.
  public func candidates(in text: String) -> [CodeCandidate] {
    let characters = Array(text)
    return spans(characters, characterTables).map { span in
      let written = String(characters[span.range])
      return CodeCandidate(
        range: span.range, kind: span.kind, text: written,
        value: String(
          written.compactMap { $0.isCodeDigit ? $0.asciiDigit : $0.isASCIILetter ? $0 : nil }))
    }
  }

  struct Span {
    var range: Range<Int>
    var kind: CodeCandidate.Kind
    /// Whether letters in it are masked too (letter-digit codes), or only digits.
    var masksLetters: Bool
  }

  func spans<Unit: CodeTextUnit>(_ characters: [Unit], _ tables: CodeTextTables<Unit>) -> [Span] {
    let tokens = Self.tokens(characters)
    var spans: [Span] = []
    let letterDigit = rules.letterDigitCodes
    let separators = tables.separators
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      let length = token.end - token.start
      if !token.isDigits {
        // One case only: a mixed-case token is a hash or a name (`9qCX9VSu`), not a code.
        if token.digits >= letterDigit.minDigits, token.letters >= letterDigit.minLetters,
          !(token.hasLowercase && token.hasUppercase), token.runs >= letterDigit.minRuns,
          (letterDigit.minLength...letterDigit.maxLength).contains(length)
        {
          spans.append(Span(range: token.start..<token.end, kind: .letterDigit, masksLetters: true))
        } else {
          spans += digitRuns(characters, token)
        }
        index += 1
        continue
      }
      // Join following digit runs separated by one separator character.
      var last = index
      var digits = token.digits
      while last + 1 < tokens.count {
        let next = tokens[last + 1]
        guard next.isDigits, next.start == tokens[last].end + 1,
          let minPart = separators[characters[tokens[last].end]],
          tokens[last].digits >= minPart, next.digits >= minPart
        else { break }
        digits += next.digits
        last += 1
      }
      if digits >= rules.digitGroups.minDigits {
        var start = token.start
        // A capital-letter prefix joined by a separator (`G-482913`) belongs to the code.
        if index > 0, tokens[index - 1].end + 1 == start, !tokens[index - 1].hasLowercase,
          tokens[index - 1].digits == 0, tokens[index - 1].end - tokens[index - 1].start <= 3,
          separators[characters[start - 1]] != nil, characters[start - 1] != Unit.space
        {
          start = tokens[index - 1].start
        }
        spans.append(Span(range: start..<tokens[last].end, kind: .digits, masksLetters: false))
      }
      index = last + 1
    }
    // A number that fills the signature opening or closing the text (`【12306】`) is the
    // sender's name: neither masked nor a code.
    if let words = tables.words, let last = spans.last {
      if Self.fillsSignature(last.range, characters, words) { spans.removeLast() }
      if let first = spans.first, Self.fillsSignature(first.range, characters, words) {
        spans.removeFirst()
      }
    }
    return spans
  }

  /// Whether `range` is the whole inside of a bracket pair opening or closing the text
  /// (spaces aside); no allocation, as masking asks it of nearly every text.
  static func fillsSignature<Unit: CodeTextUnit>(
    _ range: Range<Int>, _ characters: [Unit], _ words: CodeTextTables<Unit>.ExtractionWords
  ) -> Bool {
    guard range.lowerBound > 0, range.upperBound < characters.count else { return false }
    func isSpace(_ unit: Unit) -> Bool {
      unit == Unit.space || unit == Unit.newline || unit == Unit.tab
    }
    let opening = characters[range.lowerBound - 1]
    let closing = characters[range.upperBound]
    if words.signatureClosing(opening) == closing,
      characters[..<(range.lowerBound - 1)].allSatisfy(isSpace)
    {
      return true
    }
    return words.signatureOpening(closing) == opening
      && characters[(range.upperBound + 1)...].allSatisfy(isSpace)
  }

  /// The insides of the bracket pairs that open and close `characters` (units `isSpace`
  /// accepts aside): where the sender's signature is (`【12306】`).
  static func signatures<Unit: CodeTextUnit>(
    _ characters: [Unit], _ words: CodeTextTables<Unit>.ExtractionWords,
    isSpace: (Unit) -> Bool
  ) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var first = 0
    while first < characters.count, isSpace(characters[first]) { first += 1 }
    if first < characters.count, let closing = words.signatureClosing(characters[first]),
      let end = characters[(first + 1)...].firstIndex(of: closing)
    {
      found.append((first + 1)..<end)
    }
    var last = characters.count - 1
    while last >= 0, isSpace(characters[last]) { last -= 1 }
    if last >= 0, let opening = words.signatureOpening(characters[last]),
      let start = characters[..<last].lastIndex(of: opening)
    {
      found.append((start + 1)..<last)
    }
    return found
  }

  /// Digit runs long enough to mask inside a token of letters and digits (`abc12345`).
  private func digitRuns<Unit: CodeTextUnit>(_ characters: [Unit], _ token: Token) -> [Span] {
    var spans: [Span] = []
    var start = token.start
    while start < token.end {
      guard characters[start].isCodeDigit else {
        start += 1
        continue
      }
      var end = start
      while end < token.end, characters[end].isCodeDigit { end += 1 }
      if end - start >= rules.digitGroups.minDigits {
        spans.append(Span(range: start..<end, kind: .digits, masksLetters: false))
      }
      start = end
    }
    return spans
  }

  /// `text` with every candidate's digits (and a letter-digit code's letters) replaced by the
  /// mask character; separators and everything else kept.
  ///
  /// Walks the text by Unicode scalar when ``CodeTextScalars/simple(_:)`` accepts it and the
  /// mask is one simple scalar (nearly every SMS), else by `Character`; both walks give the
  /// same text (``referenceMask(_:)``).
  public func mask(_ text: String) -> String {
    guard let scalarTables, let maskScalar, var scalars = CodeTextScalars.simple(text) else {
      return referenceMask(text)
    }
    guard mask(&scalars, below: scalars.count, scalarTables, maskScalar) else { return text }
    return CodeTextScalars.string(scalars[...])
  }

  /// ``mask(_:)`` by the walk by `Character` alone, whatever the text: the reference the
  /// cheaper walk by scalar is tested against.
  public func referenceMask(_ text: String) -> String {
    let characters = Array(text)
    let spans = spans(characters, characterTables)
    guard !spans.isEmpty else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var position = 0
    for span in spans {
      result += String(characters[position..<span.range.lowerBound])
      for character in characters[span.range] {
        let hidden = character.isNumber || (span.masksLetters && character.isLetter)
        if hidden { result += mask } else { result.append(character) }
      }
      position = span.range.upperBound
    }
    result += String(characters[position...])
    return result
  }

  /// Replaces, in place, each hidden unit of every candidate that starts below `limit` (the
  /// candidates are found in the whole text, so one the limit cuts is still known whole) by
  /// `maskUnit`; false when the text has no candidate.
  func mask<Unit: CodeTextUnit>(
    _ units: inout [Unit], below limit: Int, _ tables: CodeTextTables<Unit>, _ maskUnit: Unit
  ) -> Bool {
    let spans = spans(units, tables)
    for span in spans where span.range.lowerBound < limit {
      for index in span.range.lowerBound..<min(span.range.upperBound, limit) {
        let unit = units[index]
        if unit.isNumber || (span.masksLetters && unit.isLetter) { units[index] = maskUnit }
      }
    }
    return !spans.isEmpty
  }

  /// ``Redactor/maskBody(_:preview:)`` walked by scalar: its line breaks (line feed, vertical
  /// tab, form feed: the only simple ones) made single spaces, every candidate of the whole
  /// line masked, then cut to `preview` characters with an ellipsis. Nil when the body or the
  /// mask is not simple (the caller takes the walk by `Character`).
  func maskedPreview(_ body: String, preview: Int) -> String? {
    guard let scalarTables, let maskScalar, var units = CodeTextScalars.simple(body) else {
      return nil
    }
    // `split(whereSeparator: \.isNewline).joined(separator: " ")`, in place: a run of breaks
    // is one space, none at either end.
    var count = 0
    var pendingSpace = false
    for index in units.indices {
      let unit = units[index]
      if (0x0A...0x0C).contains(unit.value) {
        pendingSpace = count > 0
        continue
      }
      if pendingSpace {
        units[count] = " "
        count += 1
        pendingSpace = false
      }
      units[count] = unit
      count += 1
    }
    units.removeSubrange(count...)
    let limit = min(units.count, max(0, preview))
    _ = mask(&units, below: limit, scalarTables, maskScalar)
    guard units.count > limit else { return CodeTextScalars.string(units[...]) }
    return CodeTextScalars.string(units[..<limit], then: "…")
  }
}

/// The rules' separators and extraction words in the units one walk compares.
struct CodeTextTables<Unit: CodeTextUnit>: Sendable {
  /// Separator → fewest digits on both sides it joins.
  var separators: [Unit: Int]
  /// The extraction words; nil: no extraction.
  var words: ExtractionWords?

  /// ``CodeRules/Extraction``'s words, lowercased once here rather than for every message,
  /// its one-character joiners and its numbers. A class: every message's reading holds it,
  /// and a struct of some twenty arrays cost as many retains and releases each time.
  final class ExtractionWords: Sendable {
    let keywords: [[Unit]]
    let ignoredPhrases: [[Unit]]
    let keywordSet: CodeWordSet<Unit>
    let ignoredPhraseSet: CodeWordSet<Unit>
    let refuseBefore: [[Unit]]
    let refuseAfter: [[Unit]]
    let joiners: Set<Unit>
    let refuseJustBefore: [[Unit]]
    let allowAfter: [[Unit]]
    let months: [[Unit]]
    let copulas: [[Unit]]
    // Short lists: an array's comparisons are cheaper than a set's hashing.
    let sentenceEnds: [Unit]
    let clauseBreaks: [Unit]
    /// Opening unit → closing unit.
    let signaturesAtStart: [Unit: Unit]
    /// Closing unit → opening unit.
    let signaturesAtEnd: [Unit: Unit]
    // The same as short arrays: comparing a few units is cheaper than hashing one.
    private let startPairs: [(Unit, Unit)]
    private let endPairs: [(Unit, Unit)]

    /// The closing bracket of a signature that `opening` starts, or nil.
    func signatureClosing(_ opening: Unit) -> Unit? {
      startPairs.first { $0.0 == opening }?.1
    }

    /// The opening bracket of a signature that `closing` ends, or nil.
    func signatureOpening(_ closing: Unit) -> Unit? {
      endPairs.first { $0.0 == closing }?.1
    }
    let keywordless: Keywordless?
    let window: Int
    let minDigits: Int
    let maxDigits: Int
    let refuseBeforeWindow: Int
    let sentenceWindow: Int
    let dateYearPrefixes: [String]

    init(
      keywords: [[Unit]], ignoredPhrases: [[Unit]], refuseBefore: [[Unit]],
      refuseAfter: [[Unit]], joiners: Set<Unit>, refuseJustBefore: [[Unit]],
      allowAfter: [[Unit]], months: [[Unit]], copulas: [[Unit]], sentenceEnds: [Unit],
      clauseBreaks: [Unit], signaturesAtStart: [Unit: Unit], signaturesAtEnd: [Unit: Unit],
      keywordless: Keywordless?, window: Int, minDigits: Int, maxDigits: Int,
      refuseBeforeWindow: Int, sentenceWindow: Int, dateYearPrefixes: [String]
    ) {
      self.keywords = keywords
      self.ignoredPhrases = ignoredPhrases
      self.keywordSet = CodeWordSet(keywords)
      self.ignoredPhraseSet = CodeWordSet(ignoredPhrases)
      self.refuseBefore = refuseBefore
      self.refuseAfter = refuseAfter
      self.joiners = joiners
      self.refuseJustBefore = refuseJustBefore
      self.allowAfter = allowAfter
      self.months = months
      self.copulas = copulas
      self.sentenceEnds = sentenceEnds
      self.clauseBreaks = clauseBreaks
      self.signaturesAtStart = signaturesAtStart
      self.signaturesAtEnd = signaturesAtEnd
      startPairs = signaturesAtStart.map { ($0.key, $0.value) }
      endPairs = signaturesAtEnd.map { ($0.key, $0.value) }
      self.keywordless = keywordless
      self.window = window
      self.minDigits = minDigits
      self.maxDigits = maxDigits
      self.refuseBeforeWindow = refuseBeforeWindow
      self.sentenceWindow = sentenceWindow
      self.dateYearPrefixes = dateYearPrefixes
    }
  }

  /// ``CodeRules/Extraction/Keywordless`` in units.
  struct Keywordless: Sendable {
    var actions: CodeWordSet<Unit>
    var assurances: CodeWordSet<Unit>
    var delimiters: [Unit]
  }

  init(separators: [Unit: Int], words: ExtractionWords?) {
    self.separators = separators
    self.words = words
  }

  /// The same tables in other units; nil when one of the characters has no such unit.
  func map<Other: CodeTextUnit>(_ convert: (Unit) -> Other?) -> CodeTextTables<Other>? {
    func converted(_ word: [Unit]) -> [Other]? {
      var result: [Other] = []
      for unit in word {
        guard let other = convert(unit) else { return nil }
        result.append(other)
      }
      return result
    }
    func convertedAll(_ words: [[Unit]]) -> [[Other]]? {
      var result: [[Other]] = []
      for word in words {
        guard let other = converted(word) else { return nil }
        result.append(other)
      }
      return result
    }
    var separators: [Other: Int] = [:]
    for (unit, digits) in self.separators {
      guard let other = convert(unit) else { return nil }
      separators[other] = digits
    }
    guard let words else { return CodeTextTables<Other>(separators: separators, words: nil) }
    func convertedPairs(_ pairs: [Unit: Unit]) -> [Other: Other]? {
      var result: [Other: Other] = [:]
      for (key, value) in pairs {
        guard let key = convert(key), let value = convert(value) else { return nil }
        result[key] = value
      }
      return result
    }
    var keywordless: CodeTextTables<Other>.Keywordless?
    if let rules = words.keywordless {
      guard let actions = convertedAll(rules.actions.words),
        let assurances = convertedAll(rules.assurances.words),
        let delimiters = converted(Array(rules.delimiters))
      else { return nil }
      keywordless = .init(
        actions: CodeWordSet(actions), assurances: CodeWordSet(assurances), delimiters: delimiters)
    }
    guard let keywords = convertedAll(words.keywords),
      let ignoredPhrases = convertedAll(words.ignoredPhrases),
      let refuseBefore = convertedAll(words.refuseBefore),
      let refuseAfter = convertedAll(words.refuseAfter),
      let joiners = converted(Array(words.joiners)),
      let refuseJustBefore = convertedAll(words.refuseJustBefore),
      let allowAfter = convertedAll(words.allowAfter),
      let months = convertedAll(words.months),
      let copulas = convertedAll(words.copulas),
      let sentenceEnds = converted(Array(words.sentenceEnds)),
      let clauseBreaks = converted(Array(words.clauseBreaks)),
      let signaturesAtStart = convertedPairs(words.signaturesAtStart),
      let signaturesAtEnd = convertedPairs(words.signaturesAtEnd)
    else { return nil }
    return CodeTextTables<Other>(
      separators: separators,
      words: .init(
        keywords: keywords, ignoredPhrases: ignoredPhrases, refuseBefore: refuseBefore,
        refuseAfter: refuseAfter, joiners: Set(joiners), refuseJustBefore: refuseJustBefore,
        allowAfter: allowAfter, months: months, copulas: copulas,
        sentenceEnds: sentenceEnds, clauseBreaks: clauseBreaks,
        signaturesAtStart: signaturesAtStart,
        signaturesAtEnd: signaturesAtEnd, keywordless: keywordless, window: words.window,
        minDigits: words.minDigits, maxDigits: words.maxDigits,
        refuseBeforeWindow: words.refuseBeforeWindow, sentenceWindow: words.sentenceWindow,
        dateYearPrefixes: words.dateYearPrefixes))
  }
}

extension CodeTextTables where Unit == Character {
  init(_ rules: CodeRules) {
    var separators: [Character: Int] = [:]
    for separator in rules.digitGroups.separators {
      if separator.character.count == 1, let character = separator.character.first {
        separators[character] = separator.minPartDigits
      }
    }
    func lowered(_ words: [String]) -> [[Character]] { words.map { Array($0.lowercased()) } }
    func single(_ characters: [String]) -> Set<Character> {
      Set(characters.compactMap { $0.count == 1 ? $0.first : nil })
    }
    /// `["【】"]` → `["【": "】"]` (or reversed); pairs that are not two characters are left out.
    func pairs(_ brackets: [String], reversed: Bool) -> [Character: Character] {
      var result: [Character: Character] = [:]
      for pair in brackets {
        let characters = Array(pair)
        guard characters.count == 2 else { continue }
        if reversed {
          result[characters[1]] = characters[0]
        } else {
          result[characters[0]] = characters[1]
        }
      }
      return result
    }
    self.init(
      separators: separators,
      words: rules.extraction.map { extraction in
        ExtractionWords(
          keywords: lowered(extraction.keywords),
          ignoredPhrases: lowered(extraction.ignoredPhrases),
          refuseBefore: lowered(extraction.refuseBefore),
          refuseAfter: lowered(extraction.refuseAfter),
          joiners: single(extraction.joiners),
          refuseJustBefore: lowered(extraction.refuseJustBefore),
          allowAfter: lowered(extraction.allowAfter),
          months: lowered(extraction.months),
          copulas: lowered(extraction.copulas),
          sentenceEnds: Array(single(extraction.sentenceEnds)),
          clauseBreaks: Array(single(extraction.clauseBreaks)),
          signaturesAtStart: pairs(extraction.signaturesAtStart, reversed: false),
          signaturesAtEnd: pairs(extraction.signaturesAtEnd, reversed: true),
          keywordless: extraction.keywordless.map { keywordless in
            Keywordless(
              actions: CodeWordSet(lowered(keywordless.actions)),
              assurances: CodeWordSet(lowered(keywordless.assurances)),
              delimiters: Array(single(keywordless.delimiters)))
          },
          window: extraction.window, minDigits: extraction.minDigits,
          maxDigits: extraction.maxDigits, refuseBeforeWindow: extraction.refuseBeforeWindow,
          sentenceWindow: extraction.sentenceWindow,
          dateYearPrefixes: extraction.dateYearPrefixes)
      })
  }
}

/// What the detector asks of one unit of text: a `Character`, or a `Unicode.Scalar` of a text
/// ``CodeTextScalars/simple(_:)`` accepted (where each scalar is the character it stands for).
protocol CodeTextUnit: Hashable, Sendable {
  /// An ASCII letter or a code digit: part of a token.
  var isTokenUnit: Bool { get }
  /// An ASCII letter.
  var isASCIILetter: Bool { get }
  /// An ASCII digit.
  var isASCIIDigit: Bool { get }
  /// An ASCII digit or a full-width one (`０`–`９`, U+FF10–U+FF19): a digit of a code.
  var isCodeDigit: Bool { get }
  /// The ASCII digit a code digit stands for (`５` → `5`), else nil.
  var asciiDigit: Self? { get }
  /// Lowercase (asked of a token's ASCII letters only).
  var isLowercase: Bool { get }
  /// `Character.isNumber` (any script's digits and numerals).
  var isNumber: Bool { get }
  /// `Character.isLetter` (any script's letters).
  var isLetter: Bool { get }
  /// Its lowercase when that is one character, else itself.
  var caseFolded: Self { get }
  /// One bit of 64 that equal units share (``CodeWordSet``'s quick test); all of them when
  /// a unit has no cheap one.
  var quickBits: UInt64 { get }
  /// The space, `+` and `＋`.
  static var space: Self { get }
  static var plus: Self { get }
  static var fullwidthPlus: Self { get }
  /// Line feed, tab, `#`, `@`, `.`, `-`, `,`, `:` and `：`.
  static var newline: Self { get }
  static var tab: Self { get }
  static var hash: Self { get }
  static var at: Self { get }
  static var dot: Self { get }
  static var hyphen: Self { get }
  static var comma: Self { get }
  static var colon: Self { get }
  static var fullwidthColon: Self { get }
  /// The text of `units`.
  static func string(_ units: some Sequence<Self>) -> String
}

extension Character: CodeTextUnit {
  var isTokenUnit: Bool { isASCIILetter || isCodeDigit }
  var isASCIILetter: Bool { isASCII && isLetter }
  var isASCIIDigit: Bool { isASCII && isNumber }
  var isCodeDigit: Bool { asciiDigit != nil }
  var asciiDigit: Character? {
    if isASCII { return isNumber ? self : nil }
    let scalars = unicodeScalars
    guard scalars.count == 1, let scalar = scalars.first,
      (0xFF10...0xFF19).contains(scalar.value)
    else { return nil }
    return Unicode.Scalar(scalar.value - 0xFF10 + 0x30).map(Character.init)
  }
  var caseFolded: Character {
    let folded = lowercased()
    return folded.count == 1 ? folded.first ?? self : self
  }
  // Equal characters may differ in their scalars (é, e + ◌́): only ASCII has a bit of its own.
  var quickBits: UInt64 { asciiValue.map { 1 << ($0 & 63) } ?? .max }
  static var space: Character { " " }
  static var plus: Character { "+" }
  static var fullwidthPlus: Character { "＋" }
  static var newline: Character { "\n" }
  static var tab: Character { "\t" }
  static var hash: Character { "#" }
  static var at: Character { "@" }
  static var dot: Character { "." }
  static var hyphen: Character { "-" }
  static var comma: Character { "," }
  static var colon: Character { ":" }
  static var fullwidthColon: Character { "：" }
  static func string(_ units: some Sequence<Character>) -> String { String(units) }
}

extension Unicode.Scalar: CodeTextUnit {
  var isTokenUnit: Bool { isASCIILetter || isCodeDigit }
  var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
  var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
  var isCodeDigit: Bool { isASCIIDigit || (0xFF10...0xFF19).contains(value) }
  var asciiDigit: Unicode.Scalar? {
    if isASCIIDigit { return self }
    guard (0xFF10...0xFF19).contains(value) else { return nil }
    return Unicode.Scalar(value - 0xFF10 + 0x30)
  }
  var isLowercase: Bool { (0x61...0x7A).contains(value) }
  var isNumber: Bool { value < 0x80 ? isASCIIDigit : Character(self).isNumber }
  var isLetter: Bool { value < 0x80 ? isASCIILetter : Character(self).isLetter }
  var caseFolded: Unicode.Scalar {
    switch value {
    // A–Z, À–Þ but ×, Ａ–Ｚ: the only simple scalars whose lowercase differs (a test checks
    // every simple scalar against `Character.lowercased()`).
    case 0x41...0x5A, 0xC0...0xD6, 0xD8...0xDE, 0xFF21...0xFF3A:
      return Unicode.Scalar(value + 0x20) ?? self
    default:
      return self
    }
  }
  var quickBits: UInt64 { 1 << (value & 63) }
  static var space: Unicode.Scalar { " " }
  static var plus: Unicode.Scalar { "+" }
  static var fullwidthPlus: Unicode.Scalar { "＋" }
  static var newline: Unicode.Scalar { "\n" }
  static var tab: Unicode.Scalar { "\t" }
  static var hash: Unicode.Scalar { "#" }
  static var at: Unicode.Scalar { "@" }
  static var dot: Unicode.Scalar { "." }
  static var hyphen: Unicode.Scalar { "-" }
  static var comma: Unicode.Scalar { "," }
  static var colon: Unicode.Scalar { ":" }
  static var fullwidthColon: Unicode.Scalar { "：" }
  static func string(_ units: some Sequence<Unicode.Scalar>) -> String {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: units)
    return String(text)
  }
}

/// When a text can be walked by Unicode scalar with the answers of the walk by `Character`.
enum CodeTextScalars {
  /// Whether `scalar` is always a character of its own (no scalar before or after it joins it
  /// into one grapheme, as long as that one is simple too: no carriage return, combining mark,
  /// joiner, variation selector or emoji modifier is simple) and equal to no other scalar (it
  /// is its own canonical composition: no singleton such as the Kelvin sign or a CJK
  /// compatibility ideograph). Tests check both for every simple scalar.
  static func isSimple(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x0C, 0x0E...0x7F: true  // ASCII but the carriage return (CR LF is one).
    case 0xA0...0xFF: true  // Latin-1 (U+00AD is a control: a character of its own).
    case 0x2010...0x2027, 0x2030...0x205E: true  // dashes, quotes, ‰, ※ …
    case 0x20A0...0x20C0: true  // currency signs (€)
    case 0x3000...0x3029, 0x3030...0x303F: true  // CJK punctuation, without its tone marks
    case 0x4E00...0x9FFF: true  // CJK unified ideographs
    case 0xFF01...0xFF5E, 0xFFE0...0xFFE6: true  // fullwidth forms (：＋￥)
    default: false
    }
  }

  /// `text`'s scalars when every one is simple, else nil.
  static func simple(_ text: String) -> [Unicode.Scalar]? {
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      guard isSimple(scalar) else { return nil }
      scalars.append(scalar)
    }
    return scalars
  }

  /// The text of `scalars` followed by `suffix`, written as UTF-8 into one buffer of its size.
  static func string(_ scalars: ArraySlice<Unicode.Scalar>, then suffix: String = "") -> String {
    var length = suffix.utf8.count
    for scalar in scalars { length += UTF8.width(scalar) }
    return String(unsafeUninitializedCapacity: length) { buffer in
      var offset = 0
      for scalar in scalars {
        UTF8.encode(scalar) { byte in
          buffer[offset] = byte
          offset += 1
        }
      }
      for byte in suffix.utf8 {
        buffer[offset] = byte
        offset += 1
      }
      return offset
    }
  }

  /// The simple scalar `character` is, or nil.
  static func scalar(of character: Character) -> Unicode.Scalar? {
    let scalars = character.unicodeScalars
    guard scalars.count == 1, let scalar = scalars.first, isSimple(scalar) else { return nil }
    return scalar
  }
}
