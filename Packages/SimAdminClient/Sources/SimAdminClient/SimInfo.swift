import Foundation

/// `GET /api/sim`: the SIM card and its operator.
public struct SimInfo: Codable, Sendable, Hashable {
  /// Whether a SIM is inserted.
  public var present: Bool
  /// ICCID; `""` when unknown.
  public var iccid: String
  /// IMSI; `""` when unknown.
  public var imsi: String
  /// The SIM's numbers; may be empty.
  public var phoneNumbers: [String]
  /// SMS centre number.
  public var smsCenter: String
  /// Mobile country code.
  public var mcc: String
  /// Mobile network code.
  public var mnc: String
  /// Whether the phone number was typed in by hand.
  public var phoneNumberIsManual: Bool
  /// Whether the SMS centre was typed in by hand.
  public var smsCenterIsManual: Bool
  /// ModemManager SIM object path.
  public var simPath: String
  /// ModemManager modem object path.
  public var modemPath: String
  /// e.g. `physical` or `esim`.
  public var simType: String
  /// eSIM status text.
  public var esimStatus: String
  /// Whether this SIM is the active one.
  public var active: Bool
  /// Operator name on the SIM.
  public var operatorName: String
  /// Operator the modem is registered with.
  public var registeredOperatorName: String
  /// MCC+MNC of the registered operator.
  public var registeredOperatorCode: String
  /// Lock state, e.g. `none` or `sim-pin`.
  public var lockStatus: String
  /// PIN1 attempts left; `nil` when unknown.
  public var pin1Retries: Int64?
  /// PUK1 attempts left; `nil` when unknown.
  public var puk1Retries: Int64?
  /// PIN2 attempts left; `nil` when unknown.
  public var pin2Retries: Int64?
  /// PUK2 attempts left; `nil` when unknown.
  public var puk2Retries: Int64?
  /// Carrier configuration name.
  public var carrierConfig: String
  /// Carrier configuration revision.
  public var carrierConfigRevision: String

  enum CodingKeys: String, CodingKey {
    case present, iccid, imsi, mcc, mnc, active
    case phoneNumbers = "phone_numbers"
    case smsCenter = "sms_center"
    case phoneNumberIsManual = "phone_number_is_manual"
    case smsCenterIsManual = "sms_center_is_manual"
    case simPath = "sim_path"
    case modemPath = "modem_path"
    case simType = "sim_type"
    case esimStatus = "esim_status"
    case operatorName = "operator_name"
    case registeredOperatorName = "registered_operator_name"
    case registeredOperatorCode = "registered_operator_code"
    case lockStatus = "lock_status"
    case pin1Retries = "pin1_retries"
    case puk1Retries = "puk1_retries"
    case pin2Retries = "pin2_retries"
    case puk2Retries = "puk2_retries"
    case carrierConfig = "carrier_config"
    case carrierConfigRevision = "carrier_config_revision"
  }

  /// Decodes tolerantly: null retries stay `nil`, missing strings become `""`.
  /// The part of `GET /api/sim` a connection test keeps (present, ICCID, numbers, operator
  /// names), decoded exactly as ``SimInfo`` decodes those fields: each is read on its own, so
  /// leaving the other twenty unread changes nothing but the work. A fleet refresh reads one
  /// per device.
  public struct Glance: Decodable, Sendable, Hashable {
    /// Whether a SIM is inserted.
    public var present: Bool
    /// ICCID; `""` when unknown.
    public var iccid: String
    /// The SIM's numbers; may be empty.
    public var phoneNumbers: [String]
    /// The SIM's operator name.
    public var operatorName: String
    /// The registered network's operator name.
    public var registeredOperatorName: String

    /// Decodes tolerantly, as ``SimInfo/init(from:)``.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      present = c.lenientBool(.present)
      iccid = c.lenientString(.iccid)
      phoneNumbers = c.lenientArray(.phoneNumbers)
      operatorName = c.lenientString(.operatorName)
      registeredOperatorName = c.lenientString(.registeredOperatorName)
    }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    present = c.lenientBool(.present)
    iccid = c.lenientString(.iccid)
    imsi = c.lenientString(.imsi)
    phoneNumbers = c.lenientArray(.phoneNumbers)
    smsCenter = c.lenientString(.smsCenter)
    mcc = c.lenientString(.mcc)
    mnc = c.lenientString(.mnc)
    phoneNumberIsManual = c.lenientBool(.phoneNumberIsManual)
    smsCenterIsManual = c.lenientBool(.smsCenterIsManual)
    simPath = c.lenientString(.simPath)
    modemPath = c.lenientString(.modemPath)
    simType = c.lenientString(.simType)
    esimStatus = c.lenientString(.esimStatus)
    active = c.lenientBool(.active)
    operatorName = c.lenientString(.operatorName)
    registeredOperatorName = c.lenientString(.registeredOperatorName)
    registeredOperatorCode = c.lenientString(.registeredOperatorCode)
    lockStatus = c.lenientString(.lockStatus)
    pin1Retries = c.lenientInt(.pin1Retries)
    puk1Retries = c.lenientInt(.puk1Retries)
    pin2Retries = c.lenientInt(.pin2Retries)
    puk2Retries = c.lenientInt(.puk2Retries)
    carrierConfig = c.lenientString(.carrierConfig)
    carrierConfigRevision = c.lenientString(.carrierConfigRevision)
  }
}
