import Essentials
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where msa keeps its database and credentials (PRODUCT §4).
public enum DataDirectory {
  /// The folder name under the Linux data home.
  public static let linuxFolderName = "multisimadmin"
  /// The folder name under macOS Application Support.
  public static let appleFolderName = "MultiSimAdmin"

  /// The data directory: `--home DIR`, else `MSA_HOME`, else the platform convention
  /// (`$XDG_DATA_HOME/multisimadmin` or `~/.local/share/multisimadmin` on Linux,
  /// `~/Library/Application Support/MultiSimAdmin` on macOS, Application Support in the iOS
  /// sandbox). A relative path is taken from the current directory; `~/` is expanded.
  /// Nothing is created here; see ``prepare(_:)``.
  public static func resolve(homeFlag: String?, environment: [String: String])
    throws(DataDirectoryError) -> URL
  {
    if let homeFlag {
      let trimmed = trimmingBlanks(homeFlag)
      guard !trimmed.isEmpty else { throw .emptyHomeFlag }
      return absolute(trimmed, environment: environment)
    }
    if let value = environment["MSA_HOME"].map(trimmingBlanks), !value.isEmpty {
      return absolute(value, environment: environment)
    }
    #if os(iOS)
      guard
        let support = FileManager.default.urls(
          for: .applicationSupportDirectory, in: .userDomainMask
        ).first
      else { throw .noHomeDirectory }
      return support.appendingPathComponent(appleFolderName, isDirectory: true)
    #else
      guard let home = environment["HOME"], home.hasPrefix("/") else { throw .noHomeDirectory }
      let homeURL = URL(fileURLWithPath: home, isDirectory: true)
      #if os(macOS)
        return
          homeURL
          .appendingPathComponent("Library/Application Support", isDirectory: true)
          .appendingPathComponent(appleFolderName, isDirectory: true)
      #else
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
          return URL(fileURLWithPath: xdg, isDirectory: true)
            .appendingPathComponent(linuxFolderName, isDirectory: true)
        }
        return
          homeURL
          .appendingPathComponent(".local/share", isDirectory: true)
          .appendingPathComponent(linuxFolderName, isDirectory: true)
      #endif
    #endif
  }

  /// The mode of the data directory msa creates: the owner only, whatever the umask.
  public static let directoryMode: mode_t = 0o700
  /// The mode of every file msa creates in it (database, WAL, copies, backups, exports).
  public static let fileMode: mode_t = 0o600

  /// Creates `directory` (and its parents) when missing, the directory itself with mode
  /// 0700 whatever the umask; refuses a path that exists but is not a directory. An existing
  /// directory's mode is left alone (`msa data check` reports a looser one).
  public static func prepare(_ directory: URL) throws(DataDirectoryError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw .notADirectory(path: directory.path) }
      return
    }
    try createPrivateDirectory(directory)
  }

  /// Creates `directory` with mode 0700 (parents with the usual mode) unless it exists.
  public static func createPrivateDirectory(_ directory: URL) throws(DataDirectoryError) {
    let parent = directory.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw .cannotCreate(path: directory.path, reason: error.localizedDescription)
    }
    if mkdir(directory.path, directoryMode) != 0 {
      let code = errno
      var isDirectory: ObjCBool = false
      guard code == EEXIST,
        FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw .cannotCreate(path: directory.path, reason: String(cString: strerror(code)))
      }
      return
    }
    _ = chmod(directory.path, directoryMode)
  }

  /// `text` without the spaces and tabs (`CharacterSet.whitespaces`) at either end. A path
  /// that starts and ends with another ASCII byte has none, and is taken as it is without
  /// Foundation's trimming (a bridge to `NSString`, a tenth of a Tab press).
  static func trimmingBlanks(_ text: String) -> String {
    if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80,
      first != 0x20, first != 0x09, last != 0x20, last != 0x09
    {
      return text
    }
    return text.trimmingCharacters(in: .whitespaces)
  }

  private static func absolute(_ path: String, environment: [String: String]) -> URL {
    var expanded = path
    if expanded == "~" || expanded.hasPrefix("~/"), let home = environment["HOME"] {
      expanded = home + expanded.dropFirst()
    }
    if expanded.hasPrefix("/") {
      return URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL
    }
    let current = URL(
      fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    return current.appendingPathComponent(expanded, isDirectory: true).standardizedFileURL
  }
}

/// Why the data directory cannot be used.
public enum DataDirectoryError: LocalizedStoreError, Equatable {
  /// `--home` was given an empty value.
  case emptyHomeFlag
  /// No `--home`, no `MSA_HOME` and no usable `HOME`.
  case noHomeDirectory
  /// The path exists and is a file.
  case notADirectory(path: String)
  /// Creating the directory failed.
  case cannotCreate(path: String, reason: String)

  /// The case name: `emptyHomeFlag`, `notADirectory` …
  public var failureCode: String {
    switch self {
    case .emptyHomeFlag: "emptyHomeFlag"
    case .noHomeDirectory: "noHomeDirectory"
    default: FailureCode.caseName(of: self) ?? "dataDirectory"
    }
  }

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .emptyHomeFlag:
      LocalStoreStrings.text("dataDirectory.error.emptyHome", language)
    case .noHomeDirectory:
      LocalStoreStrings.text("dataDirectory.error.noHome", language)
    case .notADirectory(let path):
      LocalStoreStrings.text("dataDirectory.error.notDirectory", language, ["path": path])
    case .cannotCreate(let path, let reason):
      LocalStoreStrings.text(
        "dataDirectory.error.cannotCreate", language, ["path": path, "reason": reason])
    }
  }
}
