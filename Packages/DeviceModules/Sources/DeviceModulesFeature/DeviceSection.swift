import Essentials

/// One read-only section of a device, in the order the overview lists them.
public enum DeviceSection: String, Sendable, Codable, CaseIterable, Hashable {
  /// `/api/device`: modem identity and power.
  case device
  /// `/api/sim`: the SIM card and its operator.
  case sim
  /// `/api/network` and `/api/cells`: registration, signal, cells.
  case cellular
  /// `/api/stats`: memory, disks, load, uptime, temperatures, throughput.
  case resources
  /// `/api/stats/cpu`: the processor.
  case cpu
  /// `/api/connectivity`, `/api/data`, `/api/roaming`, `/api/airplane-mode`.
  case connection
  /// `/api/sms/list`: this device's own messages.
  case sms

  /// The section's name in `language`.
  public func title(_ language: AppLanguage) -> String {
    DeviceModulesStrings.text("section.\(rawValue)", language)
  }

  /// The route of this section for instance reference `ref`: `device/<ref>/<section>`.
  public func route(ref: String) -> String {
    "device/\(ref)/\(rawValue)"
  }

  /// Every section name, for usage errors and help.
  public static var names: [String] { allCases.map(\.rawValue) }
}
