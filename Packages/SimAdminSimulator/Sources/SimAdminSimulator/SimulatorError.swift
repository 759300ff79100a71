import Essentials

/// Why the simulated fleet could not start or reopen a port.
public enum SimulatorError: Error, Equatable, CustomStringConvertible {
  /// A socket call failed while opening the listener for `port` (0 = ephemeral).
  case listenFailed(port: Int, call: String, errno: Int32)
  /// The event loop could not be created.
  case eventLoopFailed(call: String, errno: Int32)
  /// A requested port is outside 1…65535.
  case invalidPort(Int)

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    let catalogue = SimAdminSimulatorStrings.catalogue
    switch self {
    case .listenFailed(let port, let call, let code):
      return catalogue.text(
        "error.listenFailed", language,
        ["port": String(port), "call": call, "reason": SystemError.text(code)])
    case .eventLoopFailed(let call, let code):
      return catalogue.text(
        "error.eventLoopFailed", language, ["call": call, "reason": SystemError.text(code)])
    case .invalidPort(let port):
      return catalogue.text("error.invalidPort", language, ["port": String(port)])
    }
  }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}
