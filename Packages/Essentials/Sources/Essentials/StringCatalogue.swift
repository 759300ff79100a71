import Foundation

/// One package's user-facing strings in every ``AppLanguage``, loaded from a JSON file.
///
/// The file maps each key to its texts: `{"fleet.added": {"en": "Added {name}.", "zh-Hans":
/// "已添加 {name}。"}}`. Placeholders are `{name}`, filled by ``text(_:_:_:)``.
public struct StringCatalogue: Sendable {
  /// Key → language code → text.
  public let entries: [String: [String: String]]
  /// Where the catalogue came from, for error messages.
  public let origin: String

  /// A catalogue from decoded entries.
  public init(entries: [String: [String: String]], origin: String) {
    self.entries = entries
    self.origin = origin
  }

  /// Decodes a catalogue file.
  public init(jsonData: Data, origin: String) throws {
    do {
      entries = try JSONDecoder().decode([String: [String: String]].self, from: jsonData)
    } catch {
      throw CatalogueError.malformed(origin: origin, detail: String(describing: error))
    }
    self.origin = origin
  }

  /// Loads `Strings.json` from a resource bundle (a package's `Bundle.module`).
  ///
  /// A missing or malformed catalogue is a build defect, so it stops the program with the
  /// bundle's path in the message rather than showing keys to the user.
  public static func bundled(in bundle: Bundle, name: String = "Strings") -> StringCatalogue {
    guard let url = bundle.url(forResource: name, withExtension: "json") else {
      fatalError("String catalogue \(name).json is missing from \(bundle.bundlePath)")
    }
    do {
      return try StringCatalogue(jsonData: Data(contentsOf: url), origin: url.lastPathComponent)
    } catch {
      fatalError("String catalogue \(url.path) cannot be read: \(error)")
    }
  }

  /// The text for `key` in `language`, with `{placeholders}` replaced from `arguments`.
  ///
  /// A key missing from the catalogue returns the key itself, so a defect is visible but
  /// never crashes; ``problems()`` (run by each package's tests) keeps that from shipping.
  public func text(
    _ key: String, _ language: AppLanguage, _ arguments: [String: String] = [:]
  ) -> String {
    guard let template = entries[key]?[language.rawValue] ?? entries[key]?["en"] else {
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
    }
    return problems
  }

  static func fill(_ template: String, _ arguments: [String: String]) -> String {
    guard !arguments.isEmpty, template.contains("{") else { return template }
    var result = template
    for (name, value) in arguments {
      result = result.replacingOccurrences(of: "{\(name)}", with: value)
    }
    return result
  }

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
