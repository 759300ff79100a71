import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// The Fleet feature's phone screens: the node list (`fleet`), the add and edit forms
/// (`fleet/new`, `fleet/:ref/edit`), a node's detail (`fleet/:ref`) and its release from its
/// Hub (`fleet/:ref/release`).
enum FleetPhone {
  static var screens: [PhoneScreen] {
    [
      PhoneScreen("fleet") { FleetListModel($0.context) },
      PhoneScreen("fleet/new") { InstanceFormModel($0.context, reference: nil) },
      PhoneScreen("fleet/:ref") { InstanceDetailModel($0.context, reference: $0.parameter("ref")) },
      PhoneScreen("fleet/:ref/edit") {
        InstanceFormModel($0.context, reference: $0.parameter("ref"))
      },
      PhoneScreen("fleet/:ref/release") {
        ReleaseModel($0.context, reference: $0.parameter("ref"))
      },
    ]
  }

  /// The store of the running app.
  static func store(_ context: PhoneContext) throws -> Store {
    try context.environment.services.resolve(Store.self)
  }

  /// Every node's row, read from the local store (no device is asked).
  static func rows(_ context: PhoneContext) async throws -> [FleetRow] {
    let store = try store(context)
    return try await context.offMain {
      try FleetRow.load(InstanceRepository(store: store).list(), store: store)
    }
  }

  /// What went wrong, in the phone's words: a device's reason without the request it was
  /// for, the phone's own sentence for the failures a phone meets, and any other message cut
  /// before its terminal advice.
  static func message(_ error: any Error, _ context: PhoneContext) -> String {
    let language = context.language
    if let failure = error as? SimAdminFailure {
      return reason(failure.error, context)
    }
    if let error = error as? SimAdminError {
      return reason(error, context)
    }
    if let failure = error as? FleetFailure {
      let phoneKey = "phone.error." + FailureCode.of(key: failure.key)
      if FleetStrings.catalogue.entries[phoneKey] != nil {
        return FleetStrings.text(phoneKey, language, failure.arguments)
      }
    }
    return context.failure(error)
  }

  /// A device's failure in the phone's words ("Wrong password: the device refused it.").
  static func reason(_ error: SimAdminError, _ context: PhoneContext) -> String {
    switch error {
    case .wrongPassword: FleetStrings.text("phone.error.wrongPassword", context.language)
    case .loginRequired: FleetStrings.text("phone.error.loginRequired", context.language)
    default:
      PhoneWording.plain(
        error.localizedMessage(context.language), fallback: context.common("phone.failed"))
    }
  }

  /// The tone a status is drawn in.
  static func tone(_ status: InstanceStatus) -> PhoneTone {
    switch status {
    case .online: .success
    case .offline: .danger
    case .loginRequired, .degraded: .warning
    case .unknown: .muted
    }
  }

  /// The status and its reason in one line ("Login required · wrong password").
  static func statusLine(_ row: FleetRow, _ language: AppLanguage) -> String {
    guard let reason = row.reason else { return row.status.label(language) }
    return row.status.label(language) + " · " + reason.text(language, detail: row.detail)
  }
}
