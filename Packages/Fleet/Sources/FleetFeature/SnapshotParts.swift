import Essentials
import Foundation
import SimAdminClient

/// The concurrent snapshot calls of one probe, and what they say about each layer.
struct SnapshotParts: Sendable {
  var device: Result<DeviceInfo, SimAdminError>
  var sim: Result<SimInfo.Glance, SimAdminError>
  var network: Result<NetworkInfo, SimAdminError>
  var stats: Result<SystemStats.Glance, SimAdminError>
  var data: Result<DataState, SimAdminError>
  var sms: Result<[SmsMessage], SimAdminError>
  /// The status layers' budget, for "not answering after N s".
  var layerSeconds: TimeInterval

  /// Whole seconds as the reasons tell them (`5`, `2.5`).
  static func seconds(_ value: TimeInterval) -> String {
    value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
  }

  /// Every failure among the calls.
  var all: [SimAdminError] {
    [
      device.failure, sim.failure, network.failure, stats.failure, data.failure, sms.failure,
    ].compactMap { $0 }
  }

  /// The layer states, and the reason of the first broken one.
  struct Evaluation {
    var modem = LayerState.unknown
    var sim = LayerState.unknown
    var registration = LayerState.unknown
    var data = LayerState.unknown
    var reason: StatusReason?
    var detail: String?
    /// What an Online device shows beside its status (mobile data off).
    var note: StatusReason?
  }

  /// The layers' states.
  ///
  /// - Parameter noModemBefore: the device's own words when its last answer was "no modem"
  ///   (nil otherwise). SimAdmin searches for a missing modem for at least 5 s and remembers
  ///   the failure only 30 s (`modem_manager.rs`), so every other probe of such a device finds
  ///   its modem lookup still searching. A modem call out of time on a device that had no
  ///   modem, with no modem-backed call answering, is still "no modem" — a stable status, not
  ///   one flapping with "modem not answering".
  func evaluate(noModemBefore: String?? = nil) -> Evaluation {
    var result = Evaluation()
    let seconds = Self.seconds(layerSeconds)
    func fail(_ reason: StatusReason, _ detail: String?) {
      if result.reason == nil {
        result.reason = reason
        result.detail = detail
      }
    }
    /// A layer call that failed in a way its own meaning does not cover: out of time, or an
    /// answer that is not SimAdmin's.
    func failOther(_ error: SimAdminError, timeout: StatusReason) {
      switch error {
      case .timeout, .cancelled: fail(timeout, seconds)
      default:
        let (_, reason, detail) = Prober.classifyAnswered(error)
        fail(reason, detail)
      }
    }
    let modemAnswered = sim.failure == nil || network.failure == nil
    switch device {
    case .success: result.modem = .ok
    case .failure(.upstream(let message)):
      result.modem = .failed
      fail(.noModem, message)
    case .failure(.timeout), .failure(.cancelled):
      result.modem = .failed
      if let before = noModemBefore, !modemAnswered {
        fail(.noModem, before)
      } else {
        fail(.modemTimeout, seconds)
      }
    case .failure(let error):
      result.modem = .failed
      failOther(error, timeout: .modemTimeout)
    }
    if result.modem != .failed {
      switch sim {
      case .success(let info) where info.present: result.sim = .ok
      case .success:
        result.sim = .failed
        fail(.noSIM, nil)
      case .failure(.upstream(let message)):
        result.sim = .failed
        fail(.noSIM, message)
      case .failure(let error):
        result.sim = .failed
        failOther(error, timeout: .simTimeout)
      }
    }
    if result.modem != .failed, result.sim != .failed {
      switch network {
      case .success(let info) where info.isRegistered: result.registration = .ok
      case .success(let info):
        result.registration = .failed
        fail(.notRegistered, info.registrationStatus)
      case .failure(.upstream(let message)):
        result.registration = .failed
        fail(.notRegistered, message)
      case .failure(let error):
        result.registration = .failed
        failOther(error, timeout: .registrationTimeout)
      }
      if result.registration == .ok {
        switch data {
        case .success(let state) where state.active: result.data = .ok
        case .success:
          // Switched off (often on purpose: SMS-only devices): Online, with a note.
          result.data = .off
          result.note = .dataOff
        case .failure(let error):
          result.data = .failed
          failOther(error, timeout: .dataTimeout)
        }
      }
    }
    return result
  }

  /// The values to keep, from whatever succeeded.
  func snapshot() -> DeviceSnapshot {
    var snapshot = DeviceSnapshot()
    if case .success(let info) = device {
      let model = [info.manufacturer, info.model].filter { !$0.isEmpty }.joined(separator: " ")
      snapshot.model = model.isEmpty ? nil : model
      snapshot.imei = info.imei.isEmpty ? nil : info.imei
    }
    if case .success(let info) = sim {
      snapshot.phoneNumbers = info.phoneNumbers.filter { !$0.isEmpty }
      snapshot.iccid = info.iccid.isEmpty ? nil : info.iccid
      let name = info.operatorName.isEmpty ? info.registeredOperatorName : info.operatorName
      snapshot.operatorName = name.isEmpty ? nil : name
    }
    if case .success(let info) = network {
      if !info.operatorName.isEmpty { snapshot.operatorName = info.operatorName }
      snapshot.signalPercent = DeviceReading.percent.checked(info.signalStrength).map { Int($0) }
      snapshot.registration = info.registrationStatus
    }
    if case .success(let info) = stats {
      // Only what is believed is kept: an absurd reading is unknown (issue 36).
      snapshot.temperatureCelsius = info.maxTemperature
      snapshot.memoryPercent = DeviceReading.percent.checked(info.memory?.usedPercent)
      snapshot.uptime = info.uptime?.uptimeFormatted
    }
    if case .success(let state) = data { snapshot.dataActive = state.active }
    if case .success(let list) = sms, let message = list.first {
      snapshot.latestSMS = SMSPreview(
        direction: message.direction, peer: message.phoneNumber,
        maskedBody: Redactor.maskBody(message.content), date: message.date)
    }
    // The extras feed no status: what they could not tell becomes a note.
    var notes: [SnapshotNote] = []
    if case .failure(let error) = stats { notes.append(SnapshotNote(part: .stats, error)) }
    // A device without a modem has no SMS either; its status says so already.
    if case .failure(let error) = sms, device.failure == nil {
      notes.append(SnapshotNote(part: .latestSMS, error))
    }
    snapshot.notes = notes.isEmpty ? nil : notes
    return snapshot
  }
}

extension Result {
  /// The error, or nil on success.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
