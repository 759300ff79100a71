import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import SimAdminClient

/// What every Fleet command works with, resolved from the environment.
struct FleetContext: Sendable {
  let environment: AppEnvironment
  let store: Store

  init(_ environment: AppEnvironment) throws {
    self.environment = environment
    self.store = try environment.services.resolve(Store.self)
  }

  var language: AppLanguage { environment.language }
  var registry: InstanceRepository { InstanceRepository(store: store) }

  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    FleetStrings.text(key, language, arguments)
  }

  /// The shared session pool.
  func connector() throws -> SimAdminConnector {
    try environment.services.resolve(SimAdminConnector.self)
  }

  /// Drops the in-memory session of `instanceID`, if a connector exists.
  func forgetSession(_ instanceID: String) {
    guard environment.services.contains(SimAdminConnector.self),
      let connector = try? connector()
    else { return }
    connector.forget(instanceID: instanceID)
  }

  /// Every reference resolved, or the first error (nothing done yet).
  func resolve(_ references: [String]) throws -> [Instance] {
    var seen: Set<String> = []
    var result: [Instance] = []
    for reference in references {
      let instance = try registry.resolve(reference: reference)
      if seen.insert(instance.id).inserted { result.append(instance) }
    }
    return result
  }

  /// The password for the instance `name`: typed at the terminal after the prompt "Password
  /// for NAME:" with echo off, when standard input is a terminal (as `ssh`, `sudo` and `git`
  /// ask); else all of standard input with exactly one line end (`\n` or `\r\n`) removed and
  /// every other character kept.
  func readPassword(for name: String) throws -> String {
    let password: String
    if let ask = environment.streams.readSecret {
      let prompt = text("prompt.password", ["name": UntrustedText.neutralised(name)])
      password = ask(prompt.hasSuffix("：") ? prompt : prompt + " ") ?? ""
    } else {
      password = SecretInput.withoutLineEnd(environment.streams.readInput() ?? "")
    }
    guard !password.isEmpty else { throw FleetFailure("error.passwordEmpty") }
    return password
  }

  /// Fails unless the credentials file can be read (and so later written).
  func requireCredentials() throws {
    _ = try store.credentials.instanceIDsWithPasswords()
  }

  /// The row of one instance.
  func row(_ instance: Instance) throws -> FleetRow {
    try FleetRow.load([instance], store: store)[0]
  }
}
