import Foundation

/// One package's user-facing strings in every ``AppLanguage``, loaded from a JSON file.
///
/// The file maps each key to its texts: `{"fleet.added": {"en": "Added {name}.", "zh-Hans":
/// "已添加 {name}。"}}`. Placeholders are `{name}`, filled by ``text(_:_:_:)``. A language's
/// singular form, used when the `count` placeholder is 1, sits beside it with `.one` added:
/// `{"en": "+{count} columns hidden", "en.one": "+{count} column hidden", "zh-Hans": …}`
/// (Chinese needs none). A text with several counts chooses each word in place, by a
/// selector that names its count: `"Imported {added} {added|instance|instances}"` reads
/// "Imported 1 instance" and "Imported 3 instances". ``problems()`` refuses "(s)" and a
/// count followed by a plural noun that has no singular (issue 30).
///
/// An embedded catalogue is decoded on its first use, not when the program starts: every
/// feature module names its catalogue, but a command usually shows the texts of one or two.
public struct StringCatalogue: Sendable {
  /// Key → language code → text.
  public var entries: [String: [String: String]] { storage.entries }
  /// Where the catalogue came from, for error messages.
  public let origin: String
  private let storage: Storage

  /// Entries given at once, or read by a loader on first use.
  private final class Storage: Sendable {
    private let loaded: Locked<[String: [String: String]]?>
    private let load: @Sendable () -> [String: [String: String]]

    init(load: @escaping @Sendable () -> [String: [String: String]]) {
      self.loaded = Locked(nil)
      self.load = load
    }

    var entries: [String: [String: String]] {
      loaded.withLock { loaded in
        if let loaded { return loaded }
        let entries = load()
        loaded = entries
        return entries
      }
    }
  }

  /// A catalogue from decoded entries.
  public init(entries: [String: [String: String]], origin: String) {
    self.origin = origin
    self.storage = Storage { entries }
  }

  private init(origin: String, load: @escaping @Sendable () -> [String: [String: String]]) {
    self.origin = origin
    self.storage = Storage(load: load)
  }

  /// Decodes a catalogue file.
  public init(jsonData: Data, origin: String) throws {
    let entries: [String: [String: String]]
    do {
      entries = try JSONDecoder().decode([String: [String: String]].self, from: jsonData)
    } catch {
      throw CatalogueError.malformed(origin: origin, detail: String(describing: error))
    }
    self.init(entries: entries, origin: origin)
  }

  /// A catalogue compiled into the program: the bytes of a `Strings.json` embedded with
  /// SwiftPM's `.embedInCode` (`PackageResources.Strings_json`), so the executable needs no
  /// resource bundle beside it and can be copied alone.
  ///
  /// The bytes are decoded when a text is first asked for. Malformed bytes are a build defect
  /// that each package's tests catch; should one ship anyway, it never stops the program: the
  /// problem is logged once (to `logger`, standard error by default) and every text shows its
  /// key, as for a missing key.
  public static func embedded(
    _ bytes: [UInt8], origin: String,
    logger: Logger = Logger(label: "msa.catalogue", handler: StandardErrorLogHandler())
  ) -> StringCatalogue {
    StringCatalogue(origin: origin) {
      do {
        return try StringCatalogue(jsonData: Data(bytes), origin: origin).entries
      } catch {
        logger.error("\(error); texts from it show their keys")
        return [:]
      }
    }
  }

  /// The text for `key` in `language`, with `{placeholders}` replaced from `arguments`; the
  /// language's `.one` form when `count` is 1 and the key has one.
  ///
  /// A key missing from the catalogue returns the key itself, so a defect is visible but
  /// never crashes; ``problems()`` (run by each package's tests) keeps that from shipping.
  public func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    let texts = entries[key]
    let singular = arguments["count"] == "1" ? texts?[language.rawValue + ".one"] : nil
    guard let template = singular ?? texts?[language.rawValue] ?? texts?["en"] else {
      return key
    }
    return Self.fill(template, arguments)
  }

  /// Every key that lacks a language, or whose languages disagree on placeholders.
  public func problems() -> [String] {
    var problems: [String] = []
    for (key, texts) in entries.sorted(by: { $0.key < $1.key }) {
      for language in AppLanguage.allCases where (texts[language.rawValue] ?? "").isEmpty {
        problems.append("\(origin): \(key) has no \(language.rawValue) text")
      }
      let placeholderSets = Set(texts.values.map(Self.placeholders))
      if placeholderSets.count > 1 {
        problems.append("\(origin): \(key) has different placeholders per language")
      }
      for (code, template) in texts.sorted(by: { $0.key < $1.key }) {
        problems += renderingProblems(key: key, language: code, template: template)
      }
      problems += countingProblems(key: key, texts: texts)
    }
    return problems
  }

  /// Words a count's placeholder may be followed by that end in "s" but are no plural noun
  /// (a verb after a name, a unit).
  static let notPlurals: Set<String> = [
    "as", "does", "ends", "exists", "fails", "has", "holds", "is", "its", "looks", "masks",
    "matches", "ms", "refers", "s", "says", "shows", "sms", "this", "was", "waits",
  ]
  /// Words that may stand between a count and its noun (`{count} new messages`).
  static let countModifiers: Set<String> = [
    "archived", "log", "more", "new", "newest", "outbox", "simulated", "stored",
  ]

  /// Counting words that are not grammatical for every count: an English "(s)" or "(es)", and
  /// a placeholder followed by a plural noun (`{count} messages`, `{instances} instances`)
  /// without its singular: the `.one` form for `count`, else a selector `{name|one|other}`.
  func countingProblems(key: String, texts: [String: String]) -> [String] {
    var problems: [String] = []
    for code in ["en", "en.one"] {
      guard let template = texts[code] else { continue }
      let plain = template.replacingOccurrences(of: "http(s)", with: "")
      if plain.contains("(s)") || plain.contains("(es)") {
        problems.append(
          "\(origin): \(key) (\(code)) counts with \"(s)\": give the singular (\"en.one\" for "
            + "{count}, or {name|one|other} in place)")
      }
    }
    guard let english = texts["en"] else { return problems }
    for name in Self.countsBeforePlurals(english) {
      let hasOne = name == "count" && texts["en.one"] != nil
      if !hasOne && !english.contains("{\(name)|") {
        problems.append(
          "\(origin): \(key) (en) has no singular for {\(name)}: add \"en.one\" for {count}, "
            + "or {\(name)|one|other} in place")
      }
    }
    return problems
  }

  /// The placeholders of `template` followed by a plural noun (after at most two of
  /// ``countModifiers``): a word of lowercase letters ending in "s" (not "ss", "us", "is")
  /// that is not one of ``notPlurals``. A placeholder after `#` is a number that names, no count.
  static func countsBeforePlurals(_ template: String) -> [String] {
    var names: [String] = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      let name = String(rest[rest.index(after: open)..<close])
      let isNumbered = open > rest.startIndex && rest[rest.index(before: open)] == "#"
      rest = rest[rest.index(after: close)...]
      guard !isNumbered, !name.contains("|"), !sentencePlaceholders.contains(name) else {
        continue
      }
      let words = rest.prefix { $0 != "{" }.split(separator: " ", omittingEmptySubsequences: false)
      // The text right after the placeholder: a space, then the words.
      guard words.first == "", words.count > 1 else { continue }
      for raw in words.dropFirst().prefix(3) {
        let word = raw.prefix { $0.isLetter }.lowercased()
        guard !word.isEmpty, word == raw.prefix(word.count).lowercased(),
          raw.first?.isLowercase == true
        else { break }
        if countModifiers.contains(word) && word.count == raw.count { continue }
        // "address", "status", "analysis" end in "s" but are singular.
        if word.hasSuffix("s"), !["ss", "us", "is"].contains(where: word.hasSuffix),
          !notPlurals.contains(word)
        {
          names.append(name)
        }
        break
      }
    }
    return names
  }

  /// Sample values for placeholders that carry a sentence (a reason, a device's message):
  /// they end as real ones do, with a full stop or a question mark in either language.
  static let sentenceSamples = ["Sample value.", "示例值。", "示例值？"]
  /// Placeholders that carry a sentence; every other one gets a number.
  static let sentencePlaceholders: Set<String> = [
    "reason", "message", "detail", "error", "problem", "problems",
  ]

  /// What is wrong with `template` once rendered with sample values for its placeholders: a
  /// brace left over, or doubled punctuation (`。。`, `？。`, `，，`, `..`).
  func renderingProblems(key: String, language: String, template: String) -> [String] {
    // Only `{name}` is a placeholder; any other brace is left in the text and reported.
    let names = Self.placeholders(template).filter { name in
      !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
    for sample in Self.sentenceSamples {
      let rendered = Self.fill(
        template,
        Dictionary(
          uniqueKeysWithValues: names.map {
            ($0, Self.sentencePlaceholders.contains($0) ? sample : "42")
          }
        ))
      if rendered.contains("{") || rendered.contains("}") {
        return ["\(origin): \(key) (\(language)) keeps a brace: \(rendered)"]
      }
      if let doubled = Self.doubledPunctuation.first(where: { rendered.contains($0) }) {
        return ["\(origin): \(key) (\(language)) renders \(doubled): \(rendered)"]
      }
    }
    return []
  }

  static let doubledPunctuation = [
    "。。", "，，", "：：", "；；", "？。", "！。", "。，", "，。", "..", ",.", ".,",
  ]

  /// Replaces each `{name}` that `arguments` has in one pass, and each selector
  /// `{name|one|other}` by its word; other braces stay as they are. For a template resolved
  /// earlier (a ``LocalizedString``) and filled later, as ``text(_:_:_:)`` fills its own.
  public static func fill(_ template: String, _ arguments: [String: String]) -> String {
    guard !arguments.isEmpty, template.utf8.contains(UInt8(ascii: "{")) else { return template }
    var result = ""
    result.reserveCapacity(template.utf8.count)
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      let afterOpen = rest.index(after: open)
      if let close = rest[afterOpen...].firstIndex(of: "}"),
        let value = Self.value(of: rest[afterOpen..<close], arguments)
      {
        result += value
        rest = rest[rest.index(after: close)...]
        // A value that ends its own sentence ("…refused." or "…运行？") takes the place of
        // the template's full stop rather than doubling it.
        if let last = value.last, sentenceEnds.contains(last), let next = rest.first,
          next == "." || next == "。"
        {
          rest = rest.dropFirst()
        }
      } else {
        result.append("{")
        rest = rest[afterOpen...]
      }
    }
    result += rest
    return result
  }

  static let sentenceEnds: Set<Character> = [".", "!", "?", "。", "！", "？"]

  /// What a `{token}` becomes: its argument, or, for a selector `{name|one|other}`, `one`
  /// when `name`'s argument is `1` and `other` for any other; nil when `arguments` lacks it.
  static func value(of token: Substring, _ arguments: [String: String]) -> String? {
    guard token.contains("|") else { return arguments[String(token)] }
    let parts = token.split(separator: "|", omittingEmptySubsequences: false)
    guard parts.count == 3, let count = arguments[String(parts[0])] else { return nil }
    return String(count == "1" ? parts[1] : parts[2])
  }

  static func placeholders(_ template: String) -> Set<String> {
    var names: Set<String> = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      let name = rest[rest.index(after: open)..<close]
      // A selector `{name|one|other}` chooses a word; it is no value of its own.
      if !name.contains("|") { names.insert(String(name)) }
      rest = rest[rest.index(after: close)...]
    }
    return names
  }
}

/// Why a catalogue could not be used.
public enum CatalogueError: Error, Equatable, CustomStringConvertible {
  /// The file is not a JSON object of objects of strings.
  case malformed(origin: String, detail: String)

  public var description: String {
    switch self {
    case .malformed(let origin, let detail): "\(origin) is not a string catalogue: \(detail)"
    }
  }
}
