/// The held-back evaluation table of code extraction (issue 30).
///
/// Written before the rules of issue 30 were touched, from message families as an inbox holds
/// them, not from the rules: each family's usual templates (Chinese and English), with the
/// numbers that are not codes beside them (amounts, balances, order and tracking numbers,
/// phone numbers, dates and times, brand digits such as 【12306】, anti-fraud notices that
/// name 验证码 without one). The proportions follow a mainland inbox with some English:
/// about four in ten messages carry a code (verification, 动态密码/随机密码/口令, pickup codes,
/// OTPs in bank and card messages), marketing is the next largest family, then bank,
/// delivery, carrier, e-commerce, chat, social, travel and notices.
///
/// Conventions (the answer a person would copy): a digit code's value is its ASCII digits,
/// separators dropped (`852-598` → `852598`, full-width `１２３４５６` → `123456`); a letter
/// prefix joined by a hyphen is a label, not part of the code (`G-482913` → `482913`); a
/// token of capitals and digits is the code whole (`A7K9Q2`); a pickup code (取件码) is a
/// code; a promo or coupon code is not.
///
/// Never tune the rules against this table: it measures them. `CodeExtractionTests` prints
/// its precision and recall beside the working table's.
enum HeldBackCodeTable {
  enum Family: String, CaseIterable {
    case verificationChinese = "verification (zh)"
    case verificationEnglish = "verification (en)"
    case bank
    case ecommerce = "e-commerce"
    case delivery
    case carrier
    case social
    case marketing
    case chat
    case notice
    case travel
  }

  static let entries: [(family: Family, body: String, code: String?)] = [
    // MARK: - Verification, Chinese
    (.verificationChinese, "【12306】验证码：203948，用于12306账号登录，5分钟内有效。如非本人操作，请忽略本短信。", "203948"),
    (.verificationChinese, "【12306】您的验证码为：583021，您正在进行密码重置操作，如非本人操作请忽略。", "583021"),
    (.verificationChinese, "【58同城】验证码：8821，5分钟内有效，请勿泄露给他人。", "8821"),
    (.verificationChinese, "【360】您的验证码是402918，10分钟内有效。", "402918"),
    (.verificationChinese, "【1688】验证码772910，您正在登录1688，请勿泄露。", "772910"),
    (.verificationChinese, "【淘宝网】验证码391027，您正在登录淘宝，切勿告知他人。", "391027"),
    (.verificationChinese, "【支付宝】验证码 038291，您正在找回登录密码，切勿告知他人。", "038291"),
    (.verificationChinese, "【美团】382910（登录验证码，请完成验证），如非本人操作，请忽略本短信", "382910"),
    (.verificationChinese, "【猫眼】518204（登录验证码），请勿泄露。", "518204"),
    (.verificationChinese, "【小红书】603918为你的登录验证码，5分钟内有效。", "603918"),
    (.verificationChinese, "【国家电网】720194，您申请的电费账户绑定验证码，5分钟内有效。", "720194"),
    (.verificationChinese, "【建设银行】序号03的验证码481920，您正在进行网银转账。", "481920"),
    (.verificationChinese, "【京东】您正在登录，583920，5分钟内有效，请勿泄露。", "583920"),
    (.verificationChinese, "【拼多多】您正在登录拼多多，383920，5分钟内有效，如非本人操作请忽略。", "383920"),
    (.verificationChinese, "【哈啰出行】6019，您正在登录哈啰出行，请于5分钟内输入。切勿泄露给他人。", "6019"),
    (.verificationChinese, "【得物】您正在注册得物账号，729013，10分钟内有效，请勿泄露。", "729013"),
    (.verificationChinese, "【快手】验证码：482913 时效5分钟，请勿泄露。", "482913"),
    (.verificationChinese, "【叮咚买菜】您的验证码：602817 时效10分钟，请尽快完成验证。", "602817"),
    (.verificationChinese, "【中国电信】验证码381920点此 https://e.189.cn/l 直接登录，5分钟内有效。", "381920"),
    (.verificationChinese, "【百度网盘】您的验证码 719204 点此完成登录：https://pan.baidu.com/v", "719204"),
    (.verificationChinese, "【社保局】您的验证码为：５８２９１０，有效期5分钟。", "582910"),
    (.verificationChinese, "您的验证码是 ６６０２１８，请勿泄露。", "660218"),
    (.verificationChinese, "验证码：３９１８，用于登录。【物业通】", "3918"),
    (.verificationChinese, "【云闪付】您的验证码是 732－918，请勿泄露。", "732918"),
    (.verificationChinese, "【抖音】573021 是你的验证码，5分钟内有效。", "573021"),
    (.verificationChinese, "【微博】验证码 8291，用于微博登录，请在 5 分钟内完成。", "8291"),
    (.verificationChinese, "【阿里云】验证码819203，您正在进行身份验证，打死不要告诉别人哦！", "819203"),
    (.verificationChinese, "【华为】您的华为帐号验证码为：420918，用于修改密码。", "420918"),
    (.verificationChinese, "【OPPO】验证码：5019，用于登录OPPO账号，请勿告诉他人。", "5019"),
    (.verificationChinese, "【vivo】您的验证码是309182，该验证码5分钟内有效。", "309182"),
    (.verificationChinese, "【Soul】验证码: 2810 (10分钟有效)", "2810"),
    (.verificationChinese, "【Keep】您的验证码是 7291。", "7291"),
    (.verificationChinese, "【网易邮箱】您的验证码：K7M2Q9，请在30分钟内输入。", "K7M2Q9"),
    (.verificationChinese, "【知乎】验证码 582013，用于注册知乎帐号。", "582013"),
    (.verificationChinese, "【携程旅行】您的验证码394018，有效期10分钟，请勿向他人泄露。", "394018"),
    (.verificationChinese, "【高德地图】验证码9182，30分钟内有效", "9182"),
    (.verificationChinese, "【招商银行】您的动态密码为740291，您正在网上支付298.00元，请勿泄露。", "740291"),
    (.verificationChinese, "【农业银行】动态密码638102，您正在进行快捷支付签约。", "638102"),
    (.verificationChinese, "【交通银行】您的交易验证码为20381947，请勿向任何人提供。", "20381947"),
    (.verificationChinese, "【浦发银行】验证码302918 您正在尾号3821卡上进行快捷支付业务", "302918"),
    (.verificationChinese, "【中国移动】您正在登录中国移动APP，随机码为583021，5分钟内有效。", "583021"),
    (.verificationChinese, "【中国联通】尊敬的客户，您本次办理业务的短信随机码是2918，请勿泄露。", "2918"),
    (.verificationChinese, "【中国电信】您的动态口令为：493018，请于5分钟内使用。", "493018"),
    (.verificationChinese, "【邮储银行】您的交易码为582019，请勿泄露。", "582019"),
    (.verificationChinese, "【滴滴出行】验证码5201，您正在登录滴滴出行，请勿告知他人。", "5201"),
    (.verificationChinese, "【美团】验证码501928，您正在使用美团账号登录美团外卖，5分钟内有效。", "501928"),
    (.verificationChinese, "【淘宝】您的校验码是：482910，正在进行身份验证。", "482910"),
    (.verificationChinese, "【闲鱼】验证码391027，您正在修改闲鱼账号绑定的手机号。", "391027"),
    (.verificationChinese, "【云闪付】验证码：729014，您正在登录云闪付APP，如非本人操作请致电95516。", "729014"),
    (.verificationChinese, "【微信支付】您的验证码是782019，用于实名认证。", "782019"),
    (.verificationChinese, "【Apple】您的 Apple ID 验证码为：283019。请勿与他人共享。", "283019"),
    (.verificationChinese, "【Google】G-594018 是您的 Google 验证码。", "594018"),
    (.verificationChinese, "【支付宝】您正在支付1,280.00元，校验码604182，5分钟内有效。", "604182"),
    (.verificationChinese, "【京东金融】您申请借款5000元，验证码482019，请勿泄露。", "482019"),
    (.verificationChinese, "【中国银行】您尾号5521的卡将支付2,380.00元，动态密码18273940（有效期5分钟）。", "18273940"),
    (.verificationChinese, "【京东】订单249102837491需要验证，验证码382019。", "382019"),
    (.verificationChinese, "【美团】您的验证码是618204，您正在为订单尾号3821申请退款。", "618204"),
    (.verificationChinese, "【顺丰速运】验证码4402，快递员将在18:00前上门取件，电话13812345678。", "4402"),
    (.verificationChinese, "【菜鸟】您的寄件验证码为2918，请将此码告知快递员。", "2918"),
    (.verificationChinese, "【12306】验证码502918，您正在为5月15日G1234次列车候补购票。", "502918"),
    (.verificationChinese, "您好，您的短信验证码是：8291，请于3分钟内完成验证。【万科物业】", "8291"),
    (.verificationChinese, "您的验证码为582013，请在10分钟内输入。【12306】", "582013"),
    (.verificationChinese, "【招商银行】您的一次性密码：482019，有效期60秒。", "482019"),
    (.verificationChinese, "【央视频】验证码4829，感谢您参与投票。", "4829"),
    (.verificationChinese, "【QQ邮箱】独立密码重置验证码602918，请勿泄露。", "602918"),
    (.verificationChinese, "【网易】您正在进行网易账号的安全验证，验证码482019。", "482019"),
    (.verificationChinese, "【钉钉】您的验证码是5281，用于登录。", "5281"),
    (.verificationChinese, "【验证码】482019，您正在登录企业微信，请勿泄露。", "482019"),
    (.verificationChinese, "【腾讯科技】482019（QQ安全中心验证码），用于QQ号28391045的身份验证，请勿泄露。", "482019"),
    (.verificationChinese, "【平安好车主】动态验证码609182，有效期10分钟。", "609182"),
    (.verificationChinese, "【建设银行】您正在绑定手机号，短信码：391827，请勿泄露。", "391827"),
    (.verificationChinese, "【个人所得税】您正在进行个人所得税APP实名注册，验证码：572048。", "572048"),
    (.verificationChinese, "【国家政务服务平台】您的验证码为604812，有效期5分钟。", "604812"),
    (.verificationChinese, "【滴滴出行】验证码 482 913，您正在登录，请勿泄露。", "482913"),
    (.verificationChinese, "【米哈游】验证码648201，5分钟内有效。\n@user.mihoyo.com #648201", "648201"),
    (.verificationChinese, "【哔哩哔哩】验证码：2917，你正在进行手机换绑，请勿泄露。", "2917"),
    (.verificationChinese, "【中国移动】您的随机密码为：836917，该密码用于登录中国移动网上营业厅，请勿泄露。", "836917"),
    (.verificationChinese, "【中国联通】您的随机密码是538201，有效期30分钟，请妥善保管。", "538201"),
    (.verificationChinese, "【中国电信】您本次登录的随机密码为：472915，5分钟内有效。", "472915"),
    (.verificationChinese, "【工商银行】您正在进行网上银行登录，动态密码：739164，请勿向任何人泄露。", "739164"),
    (.verificationChinese, "【招商银行】动态口令602817，您正在使用手机银行转账，请勿泄露给他人。", "602817"),
    (.verificationChinese, "【中国电信】动态密码：592013，用于登录翼支付客户端，请勿泄露。", "592013"),
    (.verificationChinese, "【中国移动】您正在办理携号转网，授权码为8K2M5QT1，有效期至5月20日。", "8K2M5QT1"),
    (.verificationChinese, "验证码是 482019，帮我输一下", "482019"),

    // MARK: - Verification, English
    (.verificationEnglish, "G-482913 is your Google verification code.", "482913"),
    (.verificationEnglish, "Your Google verification code is 381920", "381920"),
    (.verificationEnglish, "<#> 482913 is your verification code. FA+9qCX9VSu", "482913"),
    (.verificationEnglish, "<#> Your Uber code: 4821. Never share this code. qBZp8Zsr1nH", "4821"),
    (
      .verificationEnglish,
      "<#> 610238 is your Lazada verification code. Do not share it. 3Kx9Lm0QaZ1", "610238"
    ),
    (
      .verificationEnglish,
      "Your Shopify verification code is 304918.\n\n@accounts.shopify.com #304918", "304918"
    ),
    (
      .verificationEnglish,
      "482913 is your Instagram code. Don't share it.\n\n@instagram.com #482913", "482913"
    ),
    (
      .verificationEnglish,
      "Your Apple ID Code is: 209183. Don't share it with anyone.\n\n@apple.com #209183 %apple.com",
      "209183"
    ),
    (.verificationEnglish, "@github.com #530219", "530219"),
    (
      .verificationEnglish,
      "OTP for your transaction of INR 12,499.00 at FLIPKART on HDFC Bank card ending 4421 is 309128. Do not share it with anyone.",
      "309128"
    ),
    (
      .verificationEnglish,
      "Your one-time password for the payment of EUR 89.90 to ZALANDO is 201948.", "201948"
    ),
    (
      .verificationEnglish,
      "Your OTP to pay Rs 1,499.00 to Swiggy via UPI is 4821. Do not share it with anyone.", "4821"
    ),
    (
      .verificationEnglish,
      "Kotak Bank: 183920 is the OTP for your transaction of Rs.749.00 at Zomato. Valid for 5 mins.",
      "183920"
    ),
    (
      .verificationEnglish,
      "Your DBS OTP is 729015 for the transaction of SGD 1,280.00 at ZALORA. Do not share.",
      "729015"
    ),
    (
      .verificationEnglish,
      "Citi: 391827 is your one-time PIN to complete your purchase of $212.50 at NIKE.COM. Don't share this.",
      "391827"
    ),
    (.verificationEnglish, "Use verification code 738201 for Microsoft authentication.", "738201"),
    (.verificationEnglish, "Your Amazon one-time password is 193204. Don't share it.", "193204"),
    (.verificationEnglish, "Your Steam login code: F7K2M", "F7K2M"),
    (.verificationEnglish, "Your Epic Games security code is 482 913", "482913"),
    (.verificationEnglish, "Twilio verification code: 8841", "8841"),
    (
      .verificationEnglish,
      "WhatsApp code 582-013\nYou can also tap on this link to verify your phone: v.whatsapp.com/582013\nDon't share this code with others",
      "582013"
    ),
    (
      .verificationEnglish,
      "Telegram code: 51238\n\nDo not give this code to anyone, even if they say they are from Telegram!",
      "51238"
    ),
    (.verificationEnglish, "Your Microsoft security code is 4820", "4820"),
    (
      .verificationEnglish,
      "Venmo here! NEVER share this code via call/text. ONLY YOU should enter the code. BEWARE: If someone asks for the code, it's a scam. Code: 839201",
      "839201"
    ),
    (.verificationEnglish, "Your Lyft code is 2910", "2910"),
    (
      .verificationEnglish,
      "PayPal: Your security code is 620184. Your code expires in 10 minutes. Please don't reply.",
      "620184"
    ),
    (.verificationEnglish, "Your verification code is S-8821. It expires in 5 minutes.", "8821"),
    (.verificationEnglish, "Your Discord security code: 502918", "502918"),
    (
      .verificationEnglish,
      "Amazon: Your code is 781022. Don't share it. If you didn't request it, deny here https://amazon.com/a/c/r/xYz",
      "781022"
    ),
    (.verificationEnglish, "Your Grab verification code is 8391. It will expire in 3 min.", "8391"),
    (.verificationEnglish, "Your verification PIN is 0482", "0482"),
    (.verificationEnglish, "Your login code for Bumble is 308127", "308127"),
    (.verificationEnglish, "Your Samsung account verification code is [739201]", "739201"),
    (.verificationEnglish, "[Alipay] Your verification code is 582901", "582901"),
    (.verificationEnglish, "Your Nintendo Account verification code: 5K2P9A", "5K2P9A"),
    (.verificationEnglish, "Your code is 0391. Reply STOP to unsubscribe.", "0391"),
    (
      .verificationEnglish,
      "Amex: Your one-time verification code is 482911. Do not share it. We will never call to ask for it.",
      "482911"
    ),
    (
      .verificationEnglish,
      "ICICI Bank: OTP for txn of INR 5,000.00 at MAKEMYTRIP on card XX4421 is 739201. Valid for 10 mins. Do not share.",
      "739201"
    ),
    (
      .verificationEnglish,
      "SBI: OTP for online purchase of Rs. 1,299.00 at MYNTRA thru State Bank Debit Card ending 7788 is 605193. Don't share",
      "605193"
    ),
    (
      .verificationEnglish,
      "Capital One: Your temporary verification code is 551023. Msg & data rates may apply.",
      "551023"
    ),
    (
      .verificationEnglish, "Vodafone: Your one-time password is 591204. It expires in 10 minutes.",
      "591204"
    ),
    (
      .verificationEnglish, "AT&T Free Msg: Your temporary PIN is 7723. Do not share this PIN.",
      "7723"
    ),
    (
      .verificationEnglish,
      "Amazon: Your delivery code is 4821. Share it with the driver to receive your package.",
      "4821"
    ),
    (.verificationEnglish, "Sign in to Netflix with code 5512. It expires in 15 minutes.", "5512"),
    (
      .verificationEnglish,
      "Coinbase: your 2-step verification code is 659 102. Don't share this code with anyone.",
      "659102"
    ),
    (.verificationEnglish, "Your X verification code is 4q7kz2xm.", "4q7kz2xm"),
    (.verificationEnglish, "Use 930128 to verify your Tinder account.", "930128"),
    (.verificationEnglish, "Uber: Your verification code is 2048. Never share this code.", "2048"),
    (.verificationEnglish, "Your Snapchat code: 603422. Happy Snapping!", "603422"),

    // MARK: - Bank
    (.bank, "【招商银行】您账户0817于05月12日14:32在【财付通-微信支付】快捷支付88.00元，余额12,345.67。", nil),
    (.bank, "【工商银行】您尾号3321卡5月12日18:02网上银行支出(消费)1,299元，余额8,766.21元。", nil),
    (.bank, "【建设银行】您尾号5521的储蓄卡5月12日10时12分向张三转账支出人民币500.00元，活期余额3,208.55元。", nil),
    (.bank, "【中国银行】您的借记卡账户2837，于05月12日收入(工资)12,500.00元，交易后余额23,456.78。", nil),
    (.bank, "【农业银行】尊敬的客户：您尾号6606账户于05月12日09:35完成代扣交易人民币-128.00，余额4,567.00。", nil),
    (.bank, "【交通银行】您尾号*4452的卡于05/12 20:15网上支付消费99.00元，可用额度18,765.43元。", nil),
    (.bank, "【招商银行】您的信用卡本期账单金额3,456.78元，最低还款345.68元，到期还款日06月08日。", nil),
    (.bank, "【平安银行】您尾号8890的信用卡5月还款已到账2,000.00元。", nil),
    (.bank, "【浦发银行】您的验证码为528193，您正在办理信用卡激活，请勿泄露。", "528193"),
    (.bank, "【工商银行】您正在使用工银e支付，支付金额326.00元，验证码491027，请勿泄露。", "491027"),
    (.bank, "【中国银行】您正在进行快捷支付，金额：1,580.00元，动态密码：30917264，有效期5分钟。", "30917264"),
    (.bank, "【建设银行】验证码：663810，您在京东商城使用尾号3344的卡支付299.00元。任何人索取验证码均为诈骗，切勿泄露！", "663810"),
    (.bank, "【兴业银行】您尾号1234的卡申请绑定微信支付，验证码849201，如非本人操作请致电95561。", "849201"),
    (.bank, "【微众银行】您的短信验证码是120584，您正在申请贷款，请勿泄露。", "120584"),
    (.bank, "【支付宝】您的账户于05月12日收到转账1000.00元。", nil),
    (.bank, "【网商银行】您尾号0088的账户余额变动：支出50.00元，余额12.34元。", nil),
    (.bank, "【招商银行】信用卡申请进度：您的申请已受理，申请编号20240512000123。", nil),
    (.bank, "【中信银行】您的信用卡（尾号2241）临时额度已提升至30000元，有效期至2024-08-12。", nil),
    (.bank, "【光大银行】您尾号2087的信用卡本月消费积分2,340分已到账。", nil),
    (.bank, "【广发银行】您尾号9911卡于14:22消费2,680.00元（京东），如非本人交易请致电400-830-8003。", nil),
    (.bank, "【邮储银行】您尾号432账户05月12日11:20转入5,000.00元，余额18,000.00元。", nil),
    (.bank, "【招商银行】您尾号0817账户05月12日入账工资8500.00元，余额21305.19元。", nil),
    (.bank, "【工商银行】您尾号3321的信用卡5月账单已出，应还2380元，到期日6月5日。", nil),
    (.bank, "【建设银行】您的账户5521于2024年05月12日发生一笔跨行转入，金额 20000 元。", nil),
    (.bank, "【中国银行】您的手机银行登录密码已修改成功，如非本人操作请致电95566。", nil),
    (.bank, "【支付宝】你的余额宝昨日收益 1.28 元，总金额 10,328.50 元。", nil),
    (.bank, "【微信支付】你尾号4421的银行卡已成功绑定。", nil),
    (.bank, "Chase: A $1,250.00 purchase at BEST BUY was made on your card ending in 4421.", nil),
    (.bank, "Wells Fargo: Your balance is $2,345.67 as of 05/12. Reply HELP for help.", nil),
    (.bank, "BofA: Your transfer of $500.00 to JOHN was sent. Confirmation #8821903.", nil),
    (
      .bank,
      "HDFC Bank: Rs.2,450.00 debited from a/c **1234 on 12-05-24 to VPA amazon@apl. Avl bal Rs.12,345.67",
      nil
    ),
    (.bank, "Your Citi card ending 3307 was charged $89.99 at NETFLIX.COM on 05/12.", nil),
    (.bank, "Capital One: Your payment of $350.00 was received. Available credit: $4,650.00.", nil),
    (.bank, "Revolut: You sent €120.00 to Anna. Balance €1,204.33", nil),
    (.bank, "Your direct deposit of $2,918.44 has posted to account ending 7781.", nil),
    (
      .bank,
      "Monzo: Your card PIN was changed on 12 May 2024 at 14:02. Not you? Call 0800 802 1281.", nil
    ),

    // MARK: - E-commerce
    (.ecommerce, "【淘宝】亲，您购买的宝贝已发货，订单号：3829104857261938，请注意查收。", nil),
    (.ecommerce, "【京东】您的订单248193847已出库，预计05月14日送达。", nil),
    (.ecommerce, "【拼多多】您的订单已支付成功，实付金额39.90元。", nil),
    (.ecommerce, "【唯品会】您的订单24051288123退款129.00元已原路退回。", nil),
    (.ecommerce, "【天猫】您的订单已签收，快来评价赢积分吧！退订回T", nil),
    (.ecommerce, "【京东】尊敬的用户，您有1280个京豆将于05月31日过期。", nil),
    (.ecommerce, "【美团】您的订单已由骑手接单，骑手电话17012345678，预计18:35送达。", nil),
    (.ecommerce, "【饿了么】您的外卖已送达，订单尾号8821，欢迎再次光临。", nil),
    (.ecommerce, "【闲鱼】买家已付款，订单金额1,200.00元，请在48小时内发货。", nil),
    (.ecommerce, "【得物】您的商品已通过鉴别，订单号112233445566即将发出。", nil),
    (.ecommerce, "【苏宁易购】您的订单9012345678的发票已开具，请在APP内查看。", nil),
    (.ecommerce, "【盒马】您的订单3829已开始配送，骑手预计12:30到达。", nil),
    (.ecommerce, "【京东】您申请的售后服务单 1920384756 已审核通过，请在7天内寄回商品。", nil),
    (.ecommerce, "【拼多多】您的商品已降价，当前价格 59 元，库存仅剩 3 件。", nil),
    (
      .ecommerce, "Amazon: Your package with 2 items will arrive Tuesday. Track at amzn.to/3xYz",
      nil
    ),
    (.ecommerce, "Your Amazon.com order #112-3456789-1234567 has shipped.", nil),
    (.ecommerce, "Your order #482913 has been confirmed. We'll text you when it ships.", nil),
    (.ecommerce, "Your Domino's order #1829 will be ready at 6:45pm.", nil),
    (.ecommerce, "eBay: Your item 'Nike Air Max' sold for $89.00! Ship by May 15.", nil),
    (.ecommerce, "Etsy: Your order #2938475 from VintageShop has shipped!", nil),
    (
      .ecommerce,
      "Walmart: Your order 2000112-34567 is ready for pickup. Show code 4417 at the store.", "4417"
    ),
    (.ecommerce, "Your Uber receipt: $24.18 for your trip on May 12.", nil),

    // MARK: - Delivery
    (.delivery, "【菜鸟驿站】您的包裹已到幸福小区东门菜鸟驿站，请凭取件码8-2-3041及时领取。", "823041"),
    (.delivery, "【丰巢】您的包裹已存入丰巢柜，取件码58231764，地址：阳光花园3号柜。", "58231764"),
    (.delivery, "【兔喜生活】取件码5-3-2016，请于19:00前到兔喜快递超市取件，电话13812345678。", "532016"),
    (.delivery, "【菜鸟驿站】您的中通包裹已到驿站，取件码12-5-8021，营业时间8:00-21:00。", "1258021"),
    (.delivery, "【韵达快递】您有包裹待取，请到华联超市取件，取货码：6091。", "6091"),
    (.delivery, "【菜鸟驿站】【取件码3-4-1207】您的申通包裹已到翠苑驿站。", "341207"),
    (.delivery, "【丰巢】取件码7830，您的包裹已超时，超时费1元。", "7830"),
    (.delivery, "【妈妈驿站】凭6-1-2207取件，您的极兔包裹已到站，地址：学府路18号。", "612207"),
    (.delivery, "【菜鸟驿站】取件码：2-4-5031，运单尾号8821，请尽快取件。", "245031"),
    (.delivery, "【中国邮政】您的邮件已到达自提点，提货码 4918，请携带证件领取。", "4918"),
    (.delivery, "【顺丰速运】您的快件SF1428392018273已签收，签收人：前台。", nil),
    (.delivery, "【顺丰速运】快件SF1428392018273正在派送，快递员王师傅13912345678。", nil),
    (.delivery, "【京东物流】您的订单预计今天送达，配送员电话15098765432。", nil),
    (.delivery, "【邮政EMS】您的邮件1180293847561已到达投递局，请保持电话畅通。", nil),
    (.delivery, "【极兔速递】您的包裹JT5012398472610已发出。", nil),
    (.delivery, "【中通快递】您的快递75382910283746已由小区快递柜代收。", nil),
    (.delivery, "【圆通速递】您的快件YT7391028374651今天18:00前送达，如不在家请联系13700001234。", nil),
    (.delivery, "【德邦快递】您的大件快递将于05月13日14:00-16:00送货上门，运单号 DPK202405120001。", nil),
    (.delivery, "UPS: Your package 1Z999AA10123456784 is out for delivery.", nil),
    (.delivery, "FedEx: Shipment 771234567890 delivered at 2:14pm.", nil),
    (
      .delivery, "USPS: Your item 9400111899223847561234 was delivered in/at mailbox at 3:05 pm.",
      nil
    ),
    (.delivery, "DHL: Your parcel 1234567890 will be delivered today 12:00-14:00.", nil),
    (.delivery, "Royal Mail: we'll deliver your parcel on 14/05. Track: royalmail.com/track", nil),

    // MARK: - Carrier
    (.carrier, "【中国移动】尊敬的客户，截至05月12日24时，您本月已使用国内通用流量12.35GB，剩余7.65GB。", nil),
    (.carrier, "【中国移动】您的账户余额为23.50元，为避免停机请及时充值。", nil),
    (.carrier, "【中国联通】您4月话费账单：58.00元，本月已缴。", nil),
    (.carrier, "【中国电信】您已成功充值100.00元，当前余额156.32元。", nil),
    (.carrier, "【中国移动】10086提醒：您本月套餐内语音剩余128分钟。", nil),
    (.carrier, "【中国联通】尊敬的用户，您的号码18612345678已成功开通5G套餐，月费129元。", nil),
    (.carrier, "【中国电信】您的宽带账号0755123456将于2024-06-01到期。", nil),
    (.carrier, "【中国移动】服务密码重置成功，新密码请登录APP查看。", nil),
    (.carrier, "【中国联通】您的国际漫游已开通，境外接听1.86元/分钟。", nil),
    (.carrier, "【中国移动】您本月积分2388分，可兑换话费。", nil),
    (.carrier, "【中国电信】您的话费余额不足10元，请及时充值，充值热线10000。", nil),
    (.carrier, "【中国移动】您已订购和彩云会员，资费10元/月，次月生效。退订请发送TD到10086。", nil),
    (.carrier, "【中国移动】您的宽带将于2024年06月30日到期，续费请拨打10086。", nil),
    (.carrier, "【中国联通】您的流量已用尽，已为您开通流量包1GB/5元。", nil),
    (.carrier, "T-Mobile: You've used 80% of your 10GB high-speed data. Visit t-mo.co/data", nil),
    (.carrier, "Verizon: Your bill of $85.40 is due 05/28. Pay at vzw.com/pay", nil),
    (.carrier, "Three: Your monthly bill of £22.00 will be taken on 15/05.", nil),
    (.carrier, "【中国电信】您的天翼账号登录验证码：3819，5分钟内有效。", "3819"),

    // MARK: - Social
    (.social, "【微信】您的微信账号于05月12日在新设备上登录。如非本人操作，请立即修改密码。", nil),
    (.social, "【QQ】你的QQ(123****89)于12:30在广东深圳登录。", nil),
    (.social, "【微博】@小明 评论了你的微博：哈哈哈", nil),
    (.social, "【抖音】你关注的@张三 开播了，快来看看吧", nil),
    (.social, "【小红书】你的笔记获得了100个赞！", nil),
    (.social, "【哔哩哔哩】你的视频《2024年度总结》播放量突破10000！", nil),
    (.social, "Facebook: John Smith tagged you in a photo. Reply STOP to unsubscribe.", nil),
    (.social, "Instagram: Someone tried to log in to your account from a new device.", nil),
    (.social, "Twitter: You have 3 new notifications.", nil),
    (
      .social,
      "WhatsApp: Your WhatsApp account is being registered on a new device. Do not share your code with anyone.",
      nil
    ),
    (.social, "LinkedIn: You appeared in 12 searches this week.", nil),
    (.social, "Discord: Your friend request to user#4821 was accepted.", nil),
    (.social, "Your verification is complete. Thank you for verifying your account.", nil),
    (.social, "Your code has expired. Request a new one in the app.", nil),

    // MARK: - Marketing
    (.marketing, "【京东】618大促开启！满300减50，爆款低至1折，戳 3.cn/a8Bk2 退订回T", nil),
    (.marketing, "【肯德基】会员日特惠，全家桶只要69元！详情见APP。退订回N", nil),
    (.marketing, "【美团】送你20元无门槛红包，有效期至05月20日，点击 dpurl.cn/xyz 领取", nil),
    (.marketing, "【携程】五一出游特惠，酒店低至5折，机票199元起。拒收请回复R", nil),
    (.marketing, "【中国移动】流量特惠包：10元5GB，回复KT5G开通。", nil),
    (.marketing, "【瑞幸咖啡】新品上市！首杯9.9元，优惠码LK2024限时领取。", nil),
    (
      .marketing, "Use code SAVE20 at checkout for 20% off. Ends Sunday! Reply STOP to opt out.",
      nil
    ),
    (.marketing, "DoorDash: Get $10 off your next order with code DASH10. Expires 5/31.", nil),
    (.marketing, "Uber Eats: 40% off your next 3 orders with promo UBER40", nil),
    (.marketing, "【拼多多】恭喜您获得100元现金红包，仅剩24小时，速领！", nil),
    (.marketing, "【平安保险】尊敬的客户，您的车险将于2024-06-15到期，续保享8.5折，详询95511。", nil),
    (.marketing, "【中国联通】办理129元套餐送30GB流量，回复1办理。", nil),
    (.marketing, "【网易严选】会员专享券30元已到账，券码YX88210，有效期7天。", nil),
    (.marketing, "【星巴克】您的生日好礼已到账，请于2024/05/31前兑换。", nil),
    (.marketing, "【链家】您关注的小区有新房源：3室2厅128㎡ 总价520万。", nil),
    (.marketing, "【喜马拉雅】VIP会员限时5折，仅需88元/年。", nil),
    (.marketing, "【淘宝】复制￥8Xk2Lm9Q￥打开手机淘宝，领取你的专属红包", nil),
    (.marketing, "【滴滴出行】送你3张8折打车券，最高抵扣15元，05月20日前有效。", nil),
    (.marketing, "【唯品会】品牌特卖，低至1折起，今晚20:00开抢！退订回T", nil),
    (.marketing, "【苏宁易购】以旧换新补贴最高2000元，详询4008-365-365。", nil),
    (.marketing, "【招商银行】掌上生活周三5折美食，最高减30元，详情点击 cmbt.cn/a1。", nil),
    (.marketing, "【中国电信】5G畅享套餐199元/月，含60GB流量+1000分钟通话，回复Y办理。", nil),
    (.marketing, "【麦当劳】麦乐送满49减15，仅限今日，速来下单！", nil),
    (.marketing, "【美团外卖】您有3张红包即将过期，最高可减12元。", nil),
    (.marketing, "【京东】PLUS会员年卡限时99元，立即开通享10倍返京豆。", nil),
    (.marketing, "【顺丰】寄件享8折，首重仅需12元，下单请搜索顺丰速运小程序。", nil),
    (.marketing, "【饿了么】超级会员月卡9.9元，每月6张无门槛红包。退订回TD", nil),
    (.marketing, "【万达影城】会员日全天购票29.9元，截止05月31日。", nil),
    (.marketing, "【中国联通】您已获赠2GB流量，有效期至2024-05-31 23:59:59。", nil),
    (
      .marketing, "Target: Get 20% off one item with coupon code 8842-2910-3381. Valid thru 5/18.",
      nil
    ),
    (.marketing, "Nike: Members get free shipping on orders over $50 this weekend only.", nil),
    (.marketing, "Sephora: Your 500 Beauty Insider points expire on 06/30. Redeem now!", nil),
    (.marketing, "Spotify: Get 3 months of Premium for $0. Offer ends 06/15.", nil),
    (.marketing, "Your referral code is JANE2024. Share it and get $20!", nil),

    // MARK: - Chat
    (.chat, "我到楼下了，3号门", nil),
    (.chat, "明天早上8点半高铁，G1234次，别迟到", nil),
    (.chat, "帮我转500块，晚上还你", nil),
    (.chat, "妈，我新号码13912345678，存一下", nil),
    (.chat, "晚上7点老地方见", nil),
    (.chat, "房租3500已经转给你了", nil),
    (.chat, "快递到了帮我拿一下，取件码6-2-1108", "621108"),
    (.chat, "你的验证码发我一下", nil),
    (.chat, "刚才那个验证码是多少？", nil),
    (.chat, "1205房间，直接上来", nil),
    (.chat, "车牌号粤B12345，停在B2", nil),
    (.chat, "微信号abc123456，加我一下", nil),
    (.chat, "会议改到2024年5月15日下午2点，3楼会议室", nil),
    (.chat, "生日快乐！🎂🎉", nil),
    (.chat, "今年是我们认识的第10年了", nil),
    (.chat, "Running 10 min late, see you at 7:30", nil),
    (.chat, "Can you send me the code? The one they texted you", nil),
    (.chat, "Flight lands at 18:45, terminal 2", nil),
    (.chat, "My new number is 415-555-0134", nil),
    (.chat, "Happy birthday!! 🎂🎉", nil),
    (.chat, "It's 2024 and you still don't have wifi lol", nil),
    (.chat, "Meet at Starbucks on 5th Ave, 2:15", nil),
    (.chat, "I paid the 1200 for rent, you owe me 600", nil),
    (.chat, "Apartment 4B, buzz 4021", nil),

    // MARK: - Notices
    (.notice, "【国家反诈中心】提醒您：凡是索要验证码的都是诈骗！请勿向任何人透露短信验证码。", nil),
    (.notice, "【公安部刑侦局】警惕冒充客服退款诈骗，客服不会索要您的银行卡号和验证码。反诈热线96110。", nil),
    (.notice, "【深圳公安】近期有不法分子冒充快递员索要验证码，请提高警惕，如遇可疑情况请拨打110。", nil),
    (.notice, "【中国银行】温馨提示：本行工作人员不会以任何理由向您索要短信验证码，谨防诈骗。客服95566", nil),
    (.notice, "【工商银行】验证码是您的重要信息，请勿转发或告知他人，如有疑问请致电95588。", nil),
    (
      .notice,
      "Bank of America will never ask for your one-time code by phone or text. Report fraud at 800-432-1000.",
      nil
    ),
    (.notice, "Never share your verification code with anyone. Amazon will never ask for it.", nil),
    (
      .notice,
      "Your one-time password was used to sign in at 10:42 PM. If this wasn't you, call 1-800-555-0123.",
      nil
    ),
    (
      .notice, "Your PIN was changed on 05/12/2024. If you didn't do this, call 1-888-555-0100.",
      nil
    ),
    (.notice, "Your verification code request for account ending 4421 was denied.", nil),
    (.notice, "【个人所得税】您的2023年度个税汇算已完成，退税金额1,280.00元。", nil),
    (.notice, "【深圳交警】您的车辆粤B12345于05月12日08:32在深南大道违法停车，罚款200元。", nil),
    (.notice, "【社保】您的社保卡已制卡完成，卡号末四位3821，请到网点领取。", nil),
    (.notice, "【健康160】您已成功预约05月15日上午9:30内科门诊，就诊序号23。", nil),
    (.notice, "【12345】您反映的问题已转办，工单号20240512001234。", nil),
    (.notice, "【12306】您的车票已改签成功，G1234次05月15日08:00开，5车12A号。", nil),
    (.notice, "【12306】订单E123456789，张三您已购5月15日G1234次二等座，检票口A12。", nil),
    (.notice, "【物业】明天9:00-17:00停水，请提前储水。3号楼业主群：82910344。", nil),
    (.notice, "【气象台】深圳市气象台2024年05月12日16时05分发布暴雨黄色预警信号。", nil),
    (
      .notice,
      "Reminder: your appointment with Dr. Lee is on 05/15 at 10:30 AM. Call 415-555-0199 to reschedule.",
      nil
    ),

    // MARK: - Travel
    (.travel, "【航旅纵横】您的航班CA1831北京-上海05月15日07:30起飞，值机柜台F。", nil),
    (.travel, "【携程】您预订的酒店已确认，订单号1128475839，入住05月15日。", nil),
    (.travel, "【东方航空】您的行程单号7812345678901已出票。", nil),
    (.travel, "【滴滴出行】您的司机王师傅已接单，车牌京A·12345，预计3分钟到达。", nil),
    (.travel, "【高铁管家】您购买的G102次列车12:30开，检票口A12。", nil),
    (.travel, "【南方航空】您预订的CZ3101航班座位号32A，登机口B12，登机时间08:40。", nil),
    (.travel, "Uber: Your driver is arriving in 3 min. Toyota Camry 7ABC123", nil),
    (
      .travel,
      "Delta: Flight DL 2381 to ATL now departs 6:45 PM from gate B12. Confirmation G7K2QX.", nil
    ),
    (.travel, "Marriott: Your reservation 83920145 is confirmed for May 15.", nil),
    (.travel, "United: Your flight UA 857 on 15MAY is delayed to 14:20. Seat 32A.", nil),
  ]
}
