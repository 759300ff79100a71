import Essentials
import FeatureKit
import Foundation
import LocalStore

/// The settings tab's phone screens: 设置 (`settings`), 本地数据 (`settings/data`), the log
/// center (`settings/logs`) and one record (`settings/logs/:id`).
enum SettingsPhone {
  static var screens: [PhoneScreen] {
    [
      PhoneScreen("settings") { SettingsModel($0.context) },
      PhoneScreen("settings/data") { LocalDataModel($0.context) },
      PhoneScreen("settings/logs") { LogListModel($0.context) },
      PhoneScreen("settings/logs/:id") { LogRecordModel($0.context, id: $0.parameter("id")) },
    ]
  }

  static func text(_ key: String, _ context: PhoneContext, _ arguments: [String: String] = [:])
    -> String
  {
    LogCenterStrings.text(key, context.language, arguments)
  }

  static func store(_ context: PhoneContext) throws -> Store {
    try CommandSupport.store(context.environment)
  }

  /// What went wrong, without terminal advice.
  static func message(_ error: any Error, _ context: PhoneContext) -> String {
    context.failure(error)
  }

  /// A size in words (`1.2 MiB`).
  static func bytes(_ bytes: Int64) -> String { CommandSupport.byteCount(bytes) }

  /// A table's name in words ("Devices"); nil for the tables only the program reads (search
  /// indexes, sync bookkeeping).
  static func table(_ name: String, _ context: PhoneContext) -> String? {
    let key = "phone.table." + name
    return LogCenterStrings.catalogue.entries[key] != nil ? text(key, context) : nil
  }

  static func tone(_ level: LogLevel) -> PhoneTone {
    switch level {
    case .trace, .debug: .muted
    case .info, .notice: .info
    case .warning: .warning
    case .error, .critical: .danger
    }
  }
}

/// A file made for the user: where it went (in words), and the file to share.
struct PhoneFile: Equatable {
  /// The file.
  var url: URL
  /// "Files › On My iPhone › MultiSimAdmin › Exports › logs-….csv".
  var place: String
}
