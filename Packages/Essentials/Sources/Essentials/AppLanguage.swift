import Foundation

/// The two languages every user-facing string exists in.
public enum AppLanguage: String, Sendable, Codable, CaseIterable, Hashable {
  /// English.
  case english = "en"
  /// Simplified Chinese.
  case simplifiedChinese = "zh-Hans"

  /// Parses a `--lang` value: `en`, `zh-Hans` (also `zh`, `zh_CN`, `zh-CN`), case-insensitive.
  public init?(flag: String) {
    switch flag.lowercased().replacingOccurrences(of: "_", with: "-") {
    case "en", "en-us", "en-gb", "english": self = .english
    case "zh", "zh-hans", "zh-cn", "zh-sg", "chinese": self = .simplifiedChinese
    default: return nil
    }
  }

  /// The language a POSIX locale names (`zh_CN.UTF-8` → Chinese); English otherwise.
  public init(posixLocale: String) {
    self = posixLocale.lowercased().hasPrefix("zh") ? .simplifiedChinese : .english
  }

  /// Chooses the language from the environment the way POSIX programs do:
  /// `LC_ALL`, then `LC_MESSAGES`, then `LANG`; English when none is set.
  public static func fromEnvironment(_ environment: [String: String]) -> AppLanguage {
    for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[key], !value.isEmpty {
        return AppLanguage(posixLocale: value)
      }
    }
    return .english
  }

  /// The `userInfo` key under which `--json` output names its language, so that a payload's
  /// reasons and errors carry their `message` in it (``of(_:)``).
  public static let userInfoKey = CodingUserInfoKey(rawValue: "msa.language")

  /// The language an encoder writes messages in: the one `--json` output set, else English.
  public static func of(_ encoder: any Encoder) -> AppLanguage {
    userInfoKey.flatMap { encoder.userInfo[$0] as? AppLanguage } ?? .english
  }

  /// The Foundation locale used for formatting numbers and dates in this language.
  public var locale: Locale {
    Locale(identifier: self == .english ? "en_US_POSIX" : "zh_Hans_CN")
  }
}
