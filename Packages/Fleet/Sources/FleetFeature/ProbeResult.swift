import Essentials
import Foundation

/// The state of one layer of an instance, from the network up.
public enum LayerState: String, Sendable, Codable, Hashable {
  /// The layer works.
  case ok
  /// The layer is broken.
  case failed
  /// Not checked (a lower layer failed, or the device does not report it).
  case unknown
  /// Switched off on purpose (mobile data off): not a failure; the device stays Online.
  case off
}

/// The layers a probe checks, in order.
public struct ProbeLayers: Sendable, Codable, Hashable {
  /// `GET /api/health` answered.
  public var reachable: LayerState
  /// The session is authenticated (or protection is off).
  public var auth: LayerState
  /// The modem answers.
  public var modem: LayerState
  /// A SIM is present.
  public var sim: LayerState
  /// The SIM is registered on a network.
  public var registration: LayerState
  /// Mobile data is on.
  public var data: LayerState

  /// Layers, all unknown unless given.
  public init(
    reachable: LayerState = .unknown, auth: LayerState = .unknown, modem: LayerState = .unknown,
    sim: LayerState = .unknown, registration: LayerState = .unknown, data: LayerState = .unknown
  ) {
    self.reachable = reachable
    self.auth = auth
    self.modem = modem
    self.sim = sim
    self.registration = registration
    self.data = data
  }
}

/// What one connection test found.
public struct ProbeResult: Sendable, Codable, Hashable {
  /// The instance probed.
  public var instanceID: String
  /// Its name at the time.
  public var instanceName: String
  /// The summary status.
  public var status: InstanceStatus
  /// Why it is not online (nil when online).
  public var reason: StatusReason?
  /// The device's own text or the system's detail, shown as is.
  public var detail: String?
  /// The layer by layer result.
  public var layers: ProbeLayers
  /// When the probe started.
  public var checkedAt: Date
  /// How long it took, milliseconds.
  public var latencyMS: Int
  /// The SimAdmin version from `/api/health`.
  public var version: String?
  /// The platform from `/api/health`.
  public var platform: String?
  /// The values fetched (nil when the device was not reachable or not logged in).
  public var snapshot: DeviceSnapshot?
  /// Set when this computer failed during the probe (out of descriptors, memory): the
  /// result says nothing about the device and is never recorded as its status.
  public var localFailure: String?
  /// The device requests the probe made that ended before it did (method, route, status,
  /// bytes, milliseconds), kept in the connection log.
  public var requests: [DeviceRequest] = []

  /// A result.
  public init(
    instanceID: String, instanceName: String, status: InstanceStatus, reason: StatusReason?,
    detail: String? = nil, layers: ProbeLayers, checkedAt: Date, latencyMS: Int,
    version: String? = nil, platform: String? = nil, snapshot: DeviceSnapshot? = nil
  ) {
    self.instanceID = instanceID
    self.instanceName = instanceName
    self.status = status
    self.reason = reason
    self.detail = detail
    self.layers = layers
    self.checkedAt = checkedAt
    self.latencyMS = latencyMS
    self.version = version
    self.platform = platform
    self.snapshot = snapshot
  }

  /// Its fields in `--json`, for `--fields` (the optional ones included).
  public static let jsonFields = [
    "instanceID", "instanceName", "status", "reason", "detail", "layers", "checkedAt",
    "latencyMS", "version", "platform", "snapshot", "localFailure", "requests",
  ]

  /// The connection-log result code: `ok`, or the reason code.
  public var resultCode: String {
    reason?.rawValue ?? "ok"
  }
}
