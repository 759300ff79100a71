import Essentials
import FleetFeature
import Testing

@Suite struct CatalogueTests {
  @Test func catalogueIsComplete() {
    #expect(FleetStrings.catalogue.problems().isEmpty)
  }

  /// A reason is a phrase in both languages, never its code.
  @Test(arguments: StatusReason.allCases)
  func everyReasonIsWords(reason: StatusReason) {
    for language in AppLanguage.allCases {
      let text = reason.text(language)
      let known =
        EventText.reasonIfKnown(reason.rawValue, language) != nil
        || FleetStrings.catalogue.entries["reason.\(reason.rawValue)"] != nil
      #expect(known && !text.hasPrefix("reason."), "\(reason) in \(language)")
    }
    #expect(reason.text(.english) != reason.text(.simplifiedChinese))
  }
}
