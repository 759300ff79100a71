import Essentials

/// The `msa simulate --faults SPEC` syntax: comma-separated `INDEX=FAULT[:ARG][@PATHPREFIX]`.
///
/// `INDEX` is the 1-based device number, or `*` for every device of the fleet
/// (`*=latency:50` gives each device 50 ms of latency). Faults: `latency:MS[:JITTER]`, `hang`, `reset`,
/// `500` (or `server-error`), `malformed` (or `malformed-json`), `oversized:BYTES`,
/// `slow:BYTES_PER_SECOND` (or `slow-body`), `html` (or `wrong-content-type`),
/// `redirect:URL`, `down`, `error` (``Fault/deviceError``), `hostile` (or `hostile-text`:
/// ``Fault/hostileText``), `absurd[:TEXT]` (every number of the answer written as `TEXT`,
/// default `1e308`: ``Fault/absurdNumbers(text:)``). Example:
/// `"3=hang,5=latency:200,7=down,2=hang@/api/stats"`.
public enum FaultSpec {
  /// Parses `spec` for a fleet of `deviceCount` devices into rules per 1-based index.
  /// An empty spec means no faults. Throws ``FaultSpecError`` naming the bad part.
  public static func parse(_ spec: String, deviceCount: Int) throws -> [Int: [FaultRule]] {
    var result: [Int: [FaultRule]] = [:]
    let trimmed = spec.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return [:] }
    for rawItem in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
      let item = rawItem.trimmingCharacters(in: .whitespaces)
      guard !item.isEmpty else { throw FaultSpecError.emptyItem(spec: spec) }
      guard let equals = item.firstIndex(of: "=") else {
        throw FaultSpecError.missingEquals(item: item)
      }
      let indexText = item[..<equals].trimmingCharacters(in: .whitespaces)
      let indices: ClosedRange<Int>
      if indexText == "*" {
        guard deviceCount > 0 else { throw FaultSpecError.badIndex(item: item, index: indexText) }
        indices = 1...deviceCount
      } else {
        guard let index = Int(indexText) else {
          throw FaultSpecError.badIndex(item: item, index: indexText)
        }
        guard (1...max(deviceCount, 1)).contains(index), deviceCount > 0 else {
          throw FaultSpecError.indexOutOfRange(item: item, index: index, deviceCount: deviceCount)
        }
        indices = index...index
      }
      var faultText = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      var prefix: String?
      if let at = faultText.lastIndex(of: "@") {
        let candidate = String(faultText[faultText.index(after: at)...])
        guard candidate.hasPrefix("/") else {
          throw FaultSpecError.badPathPrefix(item: item, prefix: candidate)
        }
        prefix = candidate
        faultText = String(faultText[..<at])
      }
      let fault = try parseFault(faultText, item: item)
      for index in indices {
        result[index, default: []].append(FaultRule(fault, pathPrefix: prefix))
      }
    }
    return result
  }

  static func parseFault(_ text: String, item: String) throws -> Fault {
    let name: String
    let argument: String?
    if let colon = text.firstIndex(of: ":") {
      name = String(text[..<colon]).lowercased()
      argument = String(text[text.index(after: colon)...])
    } else {
      name = text.lowercased()
      argument = nil
    }
    func noArgument(_ fault: Fault) throws -> Fault {
      guard argument == nil else {
        throw FaultSpecError.unexpectedArgument(item: item, fault: name)
      }
      return fault
    }
    func positive(_ text: String?) throws -> Int {
      guard let text else { throw FaultSpecError.missingArgument(item: item, fault: name) }
      guard let value = Int(text), value > 0 else {
        throw FaultSpecError.badArgument(item: item, argument: text)
      }
      return value
    }
    switch name {
    case "latency":
      guard let argument else { throw FaultSpecError.missingArgument(item: item, fault: name) }
      let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard parts.count <= 2 else {
        throw FaultSpecError.badArgument(item: item, argument: argument)
      }
      let milliseconds = try positive(parts[0])
      let jitter = parts.count == 2 ? try positive(parts[1]) : 0
      return .latency(milliseconds: milliseconds, jitter: jitter)
    case "hang": return try noArgument(.hang)
    case "reset": return try noArgument(.reset)
    case "500", "server-error", "servererror": return try noArgument(.serverError)
    case "malformed", "malformed-json", "malformedjson": return try noArgument(.malformedJSON)
    case "oversized": return .oversized(bytes: try positive(argument))
    case "slow", "slow-body", "slowbody": return .slowBody(bytesPerSecond: try positive(argument))
    case "html", "wrong-content-type", "wrongcontenttype": return try noArgument(.wrongContentType)
    case "redirect":
      guard let argument, !argument.isEmpty else {
        throw FaultSpecError.missingArgument(item: item, fault: name)
      }
      guard argument.hasPrefix("http://") || argument.hasPrefix("https://") else {
        throw FaultSpecError.badArgument(item: item, argument: argument)
      }
      return .redirect(to: argument)
    case "down": return try noArgument(.down)
    case "error", "device-error": return try noArgument(.deviceError)
    case "hostile", "hostile-text": return try noArgument(.hostileText)
    case "absurd", "absurd-numbers":
      guard let argument else { return .absurdNumbers(text: "1e308") }
      guard !argument.isEmpty, !argument.contains(where: { $0.isWhitespace || $0.isNewline })
      else { throw FaultSpecError.badArgument(item: item, argument: argument) }
      return .absurdNumbers(text: argument)
    default: throw FaultSpecError.unknownFault(item: item, fault: name)
    }
  }
}

/// Why a `--faults` spec was refused; every case names the offending part.
public enum FaultSpecError: Error, Equatable, CustomStringConvertible {
  /// Two commas in a row, or a trailing comma.
  case emptyItem(spec: String)
  /// An item without `=`.
  case missingEquals(item: String)
  /// The part before `=` is neither a number nor `*`.
  case badIndex(item: String, index: String)
  /// The device number is not between 1 and the device count.
  case indexOutOfRange(item: String, index: Int, deviceCount: Int)
  /// The fault name is unknown.
  case unknownFault(item: String, fault: String)
  /// The fault needs an argument (`latency:200`).
  case missingArgument(item: String, fault: String)
  /// The argument is not a positive number or URL.
  case badArgument(item: String, argument: String)
  /// The fault takes no argument.
  case unexpectedArgument(item: String, fault: String)
  /// The text after `@` does not start with `/`.
  case badPathPrefix(item: String, prefix: String)

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    let catalogue = SimAdminSimulatorStrings.catalogue
    switch self {
    case .emptyItem(let spec):
      return catalogue.text("faultSpec.emptyItem", language, ["spec": spec])
    case .missingEquals(let item):
      return catalogue.text("faultSpec.missingEquals", language, ["item": item])
    case .badIndex(let item, let index):
      return catalogue.text("faultSpec.badIndex", language, ["item": item, "index": index])
    case .indexOutOfRange(let item, let index, let count):
      return catalogue.text(
        "faultSpec.indexOutOfRange", language,
        ["item": item, "index": String(index), "count": String(count)])
    case .unknownFault(let item, let fault):
      return catalogue.text("faultSpec.unknownFault", language, ["item": item, "fault": fault])
    case .missingArgument(let item, let fault):
      return catalogue.text("faultSpec.missingArgument", language, ["item": item, "fault": fault])
    case .badArgument(let item, let argument):
      return catalogue.text(
        "faultSpec.badArgument", language, ["item": item, "argument": argument])
    case .unexpectedArgument(let item, let fault):
      return catalogue.text(
        "faultSpec.unexpectedArgument", language, ["item": item, "fault": fault])
    case .badPathPrefix(let item, let prefix):
      return catalogue.text("faultSpec.badPathPrefix", language, ["item": item, "prefix": prefix])
    }
  }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}

extension FaultSpecError: LocalizedFailure {}
