/// Example command lines of the device command; help and the manual end it with them, and the
/// app's tests check that each one parses.
enum DeviceExamples {
  static let all: [String: [String]] = [
    "device": [
      "msa device Office", "msa device Office cellular --json", "msa device Office sms --limit 50",
    ]
  ]
}
