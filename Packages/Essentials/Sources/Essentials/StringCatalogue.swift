import Foundation

/// One package's user-facing strings in every ``AppLanguage``, loaded from a JSON file.
///
/// The file maps each key to its texts: `{"fleet.added": {"en": "Added {name}.", "zh-Hans":
/// "已添加 {name}。"}}`. Placeholders are `{name}`, filled by ``text(_:_:_:)``. A language's
/// singular form, used when the `count` placeholder is 1, sits beside it with `.one` added:
/// `{"en": "+{count} columns hidden", "en.one": "+{count} column hidden", "zh-Hans": …}`
/// (Chinese needs none).
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
    }
    return problems
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

  /// Replaces each `{name}` that `arguments` has in one pass; other braces stay as they are.
  static func fill(_ template: String, _ arguments: [String: String]) -> String {
    guard !arguments.isEmpty, template.utf8.contains(UInt8(ascii: "{")) else { return template }
    var result = ""
    result.reserveCapacity(template.utf8.count)
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      let afterOpen = rest.index(after: open)
      if let close = rest[afterOpen...].firstIndex(of: "}"),
        let value = arguments[String(rest[afterOpen..<close])]
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

  static func placeholders(_ template: String) -> Set<String> {
    var names: Set<String> = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      names.insert(String(rest[rest.index(after: open)..<close]))
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
