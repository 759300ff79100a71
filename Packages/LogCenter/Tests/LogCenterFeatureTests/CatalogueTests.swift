import Testing

@testable import LogCenterFeature

@Suite struct CatalogueTests {
  @Test func catalogueIsComplete() {
    #expect(LogCenterStrings.catalogue.problems().isEmpty)
    #expect(!LogCenterStrings.catalogue.entries.isEmpty)
  }
}
