import Foundation

/// How serious a log record is, in swift-log's order.
public enum LogLevel: String, Sendable, Codable, CaseIterable, Comparable {
  case trace, debug, info, notice, warning, error, critical

  /// 0 for trace up to 6 for critical.
  public var severity: Int {
    switch self {
    case .trace: 0
    case .debug: 1
    case .info: 2
    case .notice: 3
    case .warning: 4
    case .error: 5
    case .critical: 6
    }
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
    lhs.severity < rhs.severity
  }
}

/// Structured context of a record: flat string pairs, printed sorted by key.
public typealias LogMetadata = [String: String]

/// One log event after redaction: what handlers receive and what the store keeps.
public struct LogRecord: Sendable, Codable, Equatable {
  /// When it happened.
  public var date: Date
  /// Its severity.
  public var level: LogLevel
  /// The logger's label, e.g. `msa.fleet`.
  public var label: String
  /// The message, with anything that looks like a secret masked.
  public var message: String
  /// The metadata, with secret keys' values masked.
  public var metadata: LogMetadata

  /// A record; prefer ``Logger`` which redacts before building one.
  public init(date: Date, level: LogLevel, label: String, message: String, metadata: LogMetadata) {
    self.date = date
    self.level = level
    self.label = label
    self.message = message
    self.metadata = metadata
  }

  /// `2026-01-01T00:00:00Z warning msa.fleet: message key=value key2=value2`.
  public var line: String {
    let time = date.formatted(.iso8601)
    let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return ([time, level.rawValue, "\(label):", message] + pairs).joined(separator: " ")
  }
}

/// Where records go: the store, stderr, memory in tests.
public protocol LogHandler: Sendable {
  /// Receives one already-redacted record.
  func handle(_ record: LogRecord)
}

/// A logger shaped like swift-log's: a label, a level, metadata and a handler.
///
/// Every record passes through ``Redactor`` before any handler sees it, so no handler can
/// store or print a secret by mistake.
public struct Logger: Sendable {
  /// Names the part of the program that logs.
  public var label: String
  /// Records below this level are dropped.
  public var logLevel: LogLevel
  /// Metadata added to every record.
  public var metadata: LogMetadata
  /// Receives the records.
  public var handler: any LogHandler
  /// Stamps the records.
  public var clock: AppClock

  /// A logger sending to `handler`.
  public init(
    label: String, handler: any LogHandler, logLevel: LogLevel = .info, clock: AppClock = .system
  ) {
    self.label = label
    self.handler = handler
    self.logLevel = logLevel
    self.metadata = [:]
    self.clock = clock
  }

  /// A logger that drops everything.
  public static let disabled = Logger(label: "disabled", handler: NullLogHandler())

  /// Logs `message` at `level` with extra metadata.
  public func log(_ level: LogLevel, _ message: String, metadata extra: LogMetadata = [:]) {
    guard level >= logLevel else { return }
    let merged = metadata.merging(extra) { _, new in new }
    handler.handle(
      LogRecord(
        date: clock.now(), level: level, label: label,
        message: Redactor.redact(text: message), metadata: Redactor.redact(metadata: merged)))
  }

  /// Logs at `.debug`.
  public func debug(_ message: String, metadata: LogMetadata = [:]) {
    log(.debug, message, metadata: metadata)
  }
  /// Logs at `.info`.
  public func info(_ message: String, metadata: LogMetadata = [:]) {
    log(.info, message, metadata: metadata)
  }
  /// Logs at `.notice`.
  public func notice(_ message: String, metadata: LogMetadata = [:]) {
    log(.notice, message, metadata: metadata)
  }
  /// Logs at `.warning`.
  public func warning(_ message: String, metadata: LogMetadata = [:]) {
    log(.warning, message, metadata: metadata)
  }
  /// Logs at `.error`.
  public func error(_ message: String, metadata: LogMetadata = [:]) {
    log(.error, message, metadata: metadata)
  }

  /// A copy with a different label, for a sub-part.
  public func labeled(_ label: String) -> Logger {
    var copy = self
    copy.label = label
    return copy
  }
}

/// Drops every record.
public struct NullLogHandler: LogHandler {
  public init() {}
  public func handle(_ record: LogRecord) {}
}

/// Sends each record to several handlers.
public struct MultiplexLogHandler: LogHandler {
  let handlers: [any LogHandler]
  /// Fans out to `handlers` in order.
  public init(_ handlers: [any LogHandler]) { self.handlers = handlers }
  public func handle(_ record: LogRecord) {
    for handler in handlers { handler.handle(record) }
  }
}

/// Writes each record as one line (``LogRecord/line``) to standard error, for `--verbose`.
public struct StandardErrorLogHandler: LogHandler {
  public init() {}
  public func handle(_ record: LogRecord) {
    // A record can quote a device's text: no control of it reaches the terminal.
    ProcessOutput.writeError(UntrustedText.neutralised(record.line) + "\n")
  }
}
