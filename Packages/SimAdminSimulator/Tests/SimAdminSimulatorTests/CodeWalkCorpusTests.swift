import Testing

@testable import Essentials
@testable import SimAdminSimulator

/// The simulator's SMS generator as a corpus for code extraction: the cheap walk by Unicode
/// scalar (`CodeDetector.code(in:)`) gives every generated message the code the walk by
/// `Character` gives (`referenceCode(in:)`), and finds one in the templates that carry one.
@Suite struct CodeWalkCorpusTests {
  @Test func generatedMessagesGiveTheSameCodes() {
    var generator = SMSGenerator(seed: 19, name: "corpus")
    var codes = 0
    let count = 2_000
    for _ in 0..<count {
      let body = generator.history().content
      let code = CodeDetector.standard.code(in: body)
      #expect(code == CodeDetector.standard.referenceCode(in: body), "\(body)")
      // Masking by scalar: the same text, and the same list preview at the lengths lists use.
      #expect(CodeDetector.standard.mask(body) == CodeDetector.standard.referenceMask(body))
      for preview in [20, 40, 200] {
        #expect(
          Redactor.maskBody(body, preview: preview)
            == Redactor.referenceMaskBody(body, preview: preview), "\(body)")
      }
      if code != nil { codes += 1 }
    }
    // About half of the templates carry a code.
    #expect(codes > count / 4 && codes < count * 3 / 4, "\(codes) codes")
  }
}
