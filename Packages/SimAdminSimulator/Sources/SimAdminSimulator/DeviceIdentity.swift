/// The seeded, fixed facts of one simulated device: modem, SIM, operator, cells, hardware.
struct DeviceIdentity: Sendable {
  struct Modem: Sendable {
    var manufacturer: String
    var model: String
    var revision: String
    var tac: String
    var technology: String
    var hardware: String
    var machine: String
    var cores: Int
    var part: String
  }

  struct Operator: Sendable {
    var simName: String
    var networkName: String
    var mnc: String
    var iccidCode: String
    var smsCenter: String
    var carrierConfig: String
  }

  /// Which of SimAdmin's three cell sources fills `/api/cells` (SIMADMIN-API §3).
  enum CellSource: Sendable {
    /// qmicli: LTE only, SINR never filled, bands as `B3`.
    case qmicli
    /// ModemManager `GetCellInfo` or the mmcli fallback: SINR when the modem reports it,
    /// bands as `LTE B3` / `NR n78`.
    case modemManager
  }

  /// One cell as SimAdmin stores it: metrics in centi-dB text (`"-8930"` = −89.30 dBm),
  /// `""` when unknown.
  struct Cell: Sendable {
    var isServing: Bool
    var cellID: Int
    var band: String
    var arfcn: String
    var pci: String
    var rsrp: String
    var rsrq: String
    var sinr: String
  }

  var modem: Modem
  var carrier: Operator
  var imei: String
  var iccid: String
  var imsi: String
  var phoneNumber: String?
  var signal: Int
  var tac: Int
  var cellSource: CellSource
  var cells: [Cell]
  var memoryTotal: Int64
  var memoryUsedFraction: Double
  var uptimeBase: Double
  var temperatures: [Double]
  var kernel: String
  var hubBound: Bool
  var hubURL: String
  var agentID: String

  static let modems: [Modem] = [
    Modem(
      manufacturer: "QUALCOMM INCORPORATED", model: "QUECTEL Mobile Broadband Module",
      revision: "EC20CEFAGR06A15M4G", tac: "86869203", technology: "lte",
      hardware: "Qualcomm Technologies, Inc MSM8916", machine: "aarch64", cores: 4, part: "0xd03"),
    Modem(
      manufacturer: "Quectel", model: "EC25", revision: "EC25EFAR06A06M4G", tac: "86692104",
      technology: "lte", hardware: "Generic DT based system", machine: "aarch64", cores: 4,
      part: "0xd03"),
    Modem(
      manufacturer: "Fibocom", model: "FM650-CN", revision: "80504.1000.00.01.01.05",
      tac: "86137106", technology: "5gnr", hardware: "Rockchip RK3568", machine: "aarch64",
      cores: 4, part: "0xd05"),
    Modem(
      manufacturer: "ZTE", model: "MF79U", revision: "BD_MF79UV1.0.0B05", tac: "86439904",
      technology: "lte", hardware: "Qualcomm Technologies, Inc MSM8916", machine: "aarch64",
      cores: 4, part: "0xd03"),
    Modem(
      manufacturer: "Quectel", model: "RM500Q-GL", revision: "RM500QGLABR11A06M4G",
      tac: "86753105", technology: "5gnr", hardware: "Intel(R) Celeron(R) J4125", machine: "x86_64",
      cores: 4, part: ""),
  ]

  static let operators: [Operator] = [
    Operator(
      simName: "中国移动", networkName: "CHINA MOBILE", mnc: "00", iccidCode: "00",
      smsCenter: "+8613800100500", carrierConfig: "China_Mobile_Commercial_VoLTE"),
    Operator(
      simName: "中国联通", networkName: "CHN-UNICOM", mnc: "01", iccidCode: "01",
      smsCenter: "+8613010112500", carrierConfig: "China_Unicom_Commercial_VoLTE"),
    Operator(
      simName: "中国电信", networkName: "CHN-CT", mnc: "11", iccidCode: "03",
      smsCenter: "+8613800100569", carrierConfig: "China_Telecom_Commercial_VoLTE"),
  ]

  init(seed: UInt64, name: String) {
    var rng = SplitMix64(seed: seed, name: name)
    modem = rng.pick(Self.modems)
    carrier = rng.pick(Self.operators)
    let imeiBody = modem.tac + rng.digits(6)
    imei = imeiBody + String(Self.luhnDigit(imeiBody))
    let iccidLength = rng.int(in: 0...3) == 0 ? 19 : 20
    let iccidBody = "8986" + carrier.iccidCode + rng.digits(iccidLength - 7)
    iccid = iccidBody + String(Self.luhnDigit(iccidBody))
    imsi = "460" + carrier.mnc + rng.digits(10)
    let prefixes = ["138", "139", "150", "151", "186", "185", "133", "189", "177", "199"]
    phoneNumber = rng.int(in: 0...4) == 0 ? nil : "+86" + rng.pick(prefixes) + rng.digits(8)
    signal = rng.int(in: 35...95)
    tac = rng.int(in: 4_096...65_535)
    let nr = modem.technology == "5gnr"
    cellSource = nr || rng.int(in: 0...1) == 0 ? .modemManager : .qmicli
    let bands = nr ? ["n78", "n41", "n1"] : ["B3", "B1", "B8", "B40", "B41"]
    let prefix = cellSource == .qmicli ? "" : (nr ? "NR " : "LTE ")
    var cells: [Cell] = []
    for index in 0..<rng.int(in: 3...6) {
      let serving = index == 0
      // A neighbour's quality is sometimes not reported: "" (unknown).
      let rsrq = serving || rng.int(in: 0...3) > 0 ? String(-rng.int(in: 300...1_800)) : ""
      let sinr = cellSource == .qmicli ? "" : String(rng.int(in: -300...2_800))
      cells.append(
        Cell(
          isServing: serving, cellID: serving ? rng.int(in: 1...268_435_455) : 0,
          band: prefix + rng.pick(bands), arfcn: String(rng.int(in: 100...3_000)),
          pci: String(rng.int(in: 0...503)), rsrp: String(-rng.int(in: 7_500...11_800)),
          rsrq: rsrq, sinr: sinr))
    }
    self.cells = cells
    memoryTotal = rng.pick([Int64(512), 1024, 2048, 4096]) * 1_048_576
    memoryUsedFraction = rng.double(in: 0.25...0.8)
    uptimeBase = rng.double(in: 3_600...3_000_000)
    temperatures = (0..<rng.int(in: 1...3)).map { _ in rng.double(in: 38...72) }
    kernel = rng.pick(["5.15.0-107-generic", "6.1.0-21-arm64", "4.19.157-perf", "6.6.31"])
    hubBound = rng.int(in: 0...2) == 0
    hubURL = "ws://192.168.1." + String(rng.int(in: 2...250)) + ":3001"
    agentID = "agt_" + rng.hex(16)
  }

  /// The Luhn check digit that makes `digits` + it valid.
  static func luhnDigit(_ digits: String) -> Int {
    var sum = 0
    for (offset, character) in digits.reversed().enumerated() {
      var value = character.wholeNumberValue ?? 0
      if offset % 2 == 0 {
        value *= 2
        if value > 9 { value -= 9 }
      }
      sum += value
    }
    return (10 - sum % 10) % 10
  }
}
