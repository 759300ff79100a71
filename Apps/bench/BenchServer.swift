import Essentials
import Foundation
import SimAdminSimulator

/// `msa-bench serve`: a simulated fleet in this process, a registry document and an origins
/// list for the script, and new messages injected on request.
enum BenchServer {
  static func run(_ options: BenchOptions) async throws {
    let count = try options.int("devices", 10)
    let messages = try options.int("sms", 40)
    let faults = try FaultSpec.parse(try options.string("faults", ""), deviceCount: count)
    let profiles = (1...count).map { index in
      DeviceProfile(
        name: "bench-\(index)", smsCount: messages, seed: UInt64(index),
        faults: faults[index] ?? [])
    }
    let fleet = try await SimulatedFleet.start(profiles, clock: .system)
    let entries = fleet.devices.map { device in
      ["name": device.profile.name, "origin": device.origin.absoluteString]
    }
    let document: [String: Any] = ["schemaVersion": 1, "groups": [], "instances": entries]
    try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
      .write(to: URL(fileURLWithPath: try options.string("registry")))
    try Data(fleet.devices.map { $0.origin.absoluteString + "\n" }.joined().utf8)
      .write(to: URL(fileURLWithPath: try options.string("origins")))
    BenchOutput.line("ready \(count)")
    var injected = 0
    while let line = readLine() {
      let words = line.split(separator: " ")
      if words.first == "inject", words.count == 2, let perDevice = Int(words[1]) {
        for device in fleet.devices {
          for _ in 0..<perDevice {
            injected += 1
            device.receiveSMS(
              from: "+8610690\(100 + injected % 900)",
              content: "【Bench】您的验证码是 \(100_000 + injected % 900_000)，new message \(injected)")
          }
        }
        BenchOutput.line("ok")
      } else if words.first == "note", words.count == 2 {
        // One message with this text on the first device (a rare term to search for).
        fleet.devices.first?.receiveSMS(from: "95566", content: String(words[1]))
        BenchOutput.line("ok")
      } else if words.first == "faults", words.count == 2 {
        let rules = try FaultSpec.parse(String(words[1]), deviceCount: count)
        for (index, device) in fleet.devices.enumerated() {
          device.setFaults(rules[index + 1] ?? [])
        }
        BenchOutput.line("ok")
      } else if words.first == "quit" {
        break
      }
    }
    await fleet.stop()
  }
}
