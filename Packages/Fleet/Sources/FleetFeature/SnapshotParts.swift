import Essentials
import Foundation
import SimAdminClient

/// The concurrent snapshot calls of one probe, and what they say about each layer.
struct SnapshotParts: Sendable {
  var device: Result<DeviceInfo, SimAdminError>
  var sim: Result<SimInfo, SimAdminError>
  var network: Result<NetworkInfo, SimAdminError>
  var stats: Result<SystemStats, SimAdminError>
  var data: Result<DataState, SimAdminError>
  var sms: Result<[SmsMessage], SimAdminError>

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
  }

  func evaluate() -> Evaluation {
    var result = Evaluation()
    func fail(_ reason: StatusReason, _ detail: String?) {
      if result.reason == nil {
        result.reason = reason
        result.detail = detail
      }
    }
    switch device {
    case .success: result.modem = .ok
    case .failure(.upstream(let message)):
      result.modem = .failed
      fail(.noModem, message)
    case .failure: break
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
      case .failure: break
      }
    }
    if result.modem != .failed, result.sim != .failed {
      switch network {
      case .success(let info) where info.isRegistered: result.registration = .ok
      case .success(let info):
        result.registration = .failed
        fail(.notRegistered, info.registrationStatus)
      case .failure: break
      }
      if result.registration == .ok {
        switch data {
        case .success(let state) where state.active: result.data = .ok
        case .success:
          result.data = .failed
          fail(.noData, nil)
        case .failure: break
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
      snapshot.signalPercent = Int(info.signalStrength)
      snapshot.registration = info.registrationStatus
    }
    if case .success(let info) = stats {
      snapshot.temperatureCelsius = info.maxTemperature
      snapshot.memoryPercent = info.memory?.usedPercent
      snapshot.uptime = info.uptime?.uptimeFormatted
    }
    if case .success(let state) = data { snapshot.dataActive = state.active }
    if case .success(let list) = sms, let message = list.first {
      snapshot.latestSMS = SMSPreview(
        direction: message.direction, peer: message.phoneNumber,
        maskedBody: Redactor.maskBody(message.content), date: message.date)
    }
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
