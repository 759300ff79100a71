import Foundation

/// Seeded SMS texts and senders that look like a real Chinese SIM's inbox.
struct SMSGenerator {
  var rng: SplitMix64

  init(seed: UInt64, name: String) {
    rng = SplitMix64(seed: seed &+ 0x5EED, name: name)
  }

  /// One generated message, before it gets an id.
  struct Draft {
    var direction: String
    var phoneNumber: String
    var content: String
  }

  private mutating func personalNumber() -> String {
    let number = rng.pick(["138", "139", "136", "158", "186", "131", "189", "173"]) + rng.digits(8)
    return rng.int(in: 0...1) == 0 ? "+86" + number : number
  }

  /// A plausible incoming message.
  mutating func incoming() -> Draft {
    var code6: String { rng.digits(6) }
    var code4: String { rng.digits(4) }
    var amount: String { rng.amount(0, 180) }
    var gigabytes: String { rng.amount(0, 40) }
    let choice = rng.int(in: 0...19)
    let (sender, text): (String, String)
    switch choice {
    case 0: (sender, text) = ("1069" + rng.digits(8), "【京东】验证码：\(code6)，您正在登录京东账户，若非本人操作，请勿泄露。")
    case 1: (sender, text) = ("95188", "【支付宝】验证码\(code6)，您正在进行身份验证，打死不要告诉别人哦！")
    case 2:
      (sender, text) = (
        "1069" + rng.digits(6), "【腾讯科技】你的验证码是\(code4)，用于手机号验证，5分钟内有效。如非本人操作，请忽略本短信。"
      )
    case 3:
      (sender, text) = (
        "1065" + rng.digits(8), "【美团】\(code6)（登录验证码）。工作人员不会向您索要，请勿向任何人泄露，以免造成账户或资金损失。"
      )
    case 4: (sender, text) = ("Google", "G-\(code6) is your Google verification code.")
    case 5:
      let code = code6
      (sender, text) = (
        "Apple",
        "Your Apple Account code is: \(code). Don't share it with anyone.\n\n@apple.com #\(code)"
      )
    case 6: (sender, text) = ("Microsoft", "Use \(code4) as Microsoft account security code")
    case 7:
      (sender, text) = (
        "+447" + rng.digits(9),
        "Telegram code: \(rng.digits(5))\n\nYou can also tap on this link to log in:\nhttps://t.me/login/\(rng.digits(5))"
      )
    case 8:
      (sender, text) = (
        "10086",
        "尊敬的客户，您好！截至\(rng.int(in: 1...28))日\(rng.int(in: 0...23))时，您的话费余额为\(amount)元。本月套餐内国内通用流量已使用\(gigabytes)GB，剩余流量请发送CXLL查询。为避免影响您的正常使用，请及时充值。中国移动"
      )
    case 9:
      (sender, text) = (
        "10010",
        "【中国联通】尊敬的用户：截至\(rng.int(in: 1...28))日，您本月已使用国内流量\(gigabytes)GB，套餐内剩余通用流量\(rng.amount(0, 30))GB。登录中国联通APP可查询详细用量、办理流量包及其他业务。如需退订提醒请回复0000。"
      )
    case 10:
      (sender, text) = (
        "10001",
        "【中国电信】尊敬的客户，您的账户本月消费\(amount)元，可用余额\(rng.amount(0, 99))元。为保障您的正常通信，请关注余额变化。回复“101”查询话费，回复“108”查询流量。"
      )
    case 11:
      (sender, text) = (
        "+1" + rng.digits(10),
        "This is a long English message to check that multi-part SMS are shown in full. Your parcel #\(rng.digits(9)) is out for delivery today between 2pm and 6pm. If nobody is home the courier will leave it with a neighbour or at the nearest pickup point; you can change the delivery preferences, choose a safe place or reschedule from the app. Reply STOP to opt out."
      )
    case 12:
      (sender, text) = (
        personalNumber(), rng.pick(["晚上一起吃饭吗？", "收到，马上到", "明天几点开会？", "好的，谢谢！", "到家了吗"])
      )
    case 13:
      (sender, text) = (
        personalNumber(),
        rng.pick([
          "Are you free tonight?", "ok", "Running 10 min late, sorry!", "Call me when you can.",
        ])
      )
    case 14:
      (sender, text) = (
        "106" + rng.digits(9),
        "【12306】订单E\(rng.digits(9))，您已购\(rng.int(in: 1...28))日G\(rng.int(in: 10...999))次\(rng.int(in: 1...16))车\(rng.int(in: 1...20))F号，北京南站\(rng.int(in: 7...20)):\(rng.digits(1))0开。"
      )
    case 15:
      (sender, text) = (
        "95555",
        "【招商银行】您账户\(rng.digits(4))于\(rng.int(in: 1...12))月\(rng.int(in: 1...28))日支出人民币\(amount)元，余额\(rng.digits(4)).\(rng.digits(2))。"
      )
    case 16:
      (sender, text) = (
        "WhatsApp",
        "Your WhatsApp code: \(rng.digits(3))-\(rng.digits(3))\nDon't share this code with others"
      )
    case 17: (sender, text) = ("1069" + rng.digits(4), "【哔哩哔哩】\(code6)短信登录验证码，5分钟内有效，请勿告诉他人。")
    case 18:
      (sender, text) = ("Unknown", "【通知】您的快递已到达驿站，取件码\(rng.digits(1))-\(rng.digits(1))-\(code4)。")
    default: (sender, text) = ("10086", "【中国移动】您的验证码为\(code6)，5分钟内有效，请勿泄露。")
    }
    return Draft(direction: "incoming", phoneNumber: sender, content: text)
  }

  /// A plausible message the device sent.
  mutating func outgoing() -> Draft {
    switch rng.int(in: 0...3) {
    case 0: return Draft(direction: "outgoing", phoneNumber: "10086", content: "CXYE")
    case 1: return Draft(direction: "outgoing", phoneNumber: "10010", content: "101")
    case 2: return Draft(direction: "outgoing", phoneNumber: personalNumber(), content: "好的，晚上见")
    default:
      return Draft(
        direction: "outgoing", phoneNumber: personalNumber(), content: "ok, see you at 7")
    }
  }

  /// A history draft: about one in ten is outgoing.
  mutating func history() -> Draft {
    rng.int(in: 0...9) == 0 ? outgoing() : incoming()
  }

  /// The dedup marker SimAdmin stores in `pdu` for incoming messages.
  mutating func fingerprint() -> String {
    "mmfp:" + rng.hex(32)
  }
}
