import Foundation
import Testing

@testable import EraserKit

@Suite struct ScanConfigurationTests {
    let march = ScanDateRange(from: ScanDay(year: 2023, month: 3, day: 1), through: ScanDay(year: 2023, month: 3, day: 31))

    private func error(_ configuration: ScanConfiguration) -> EraserKitError? {
        do {
            try configuration.validate()
            return nil
        } catch {
            return error
        }
    }

    @Test func anEmptyConfigurationHasNothingToScan() {
        #expect(error(ScanConfiguration()) == .scan(.nothingToScan))
        // The calendar alone needs date ranges to look in.
        #expect(error(ScanConfiguration(includeCalendar: true)) == .scan(.nothingToScan))
    }

    @Test func faceMatchingTakesOneToFiveReferences() {
        let url = URL(fileURLWithPath: "/refs/a.jpg")
        #expect(error(ScanConfiguration(references: .photos([]))) == .scan(.referenceCount(0)))
        #expect(error(ScanConfiguration(references: .photos(Array(repeating: url, count: 6)))) == .scan(.referenceCount(6)))
        #expect(error(ScanConfiguration(references: .photos([url]))) == nil)
        #expect(error(ScanConfiguration(references: .photos(Array(repeating: url, count: 5)))) == nil)
    }

    @Test func referenceDescriptorsMustAgreeAndBeFinite() {
        #expect(error(ScanConfiguration(references: .descriptors([[]]))) == .scan(.invalidReferenceDescriptors("a descriptor is empty")))
        #expect(error(ScanConfiguration(references: .descriptors([[1, 2], [1]])))
            == .scan(.invalidReferenceDescriptors("they differ in length")))
        #expect(error(ScanConfiguration(references: .descriptors([[1, .nan]])))
            == .scan(.invalidReferenceDescriptors("a value is not finite")))
    }

    @Test func aRangeMustNotEndBeforeItStarts() {
        let backwards = ScanDateRange(from: ScanDay(year: 2023, month: 4, day: 2), through: ScanDay(year: 2023, month: 4, day: 1))
        #expect(error(ScanConfiguration(dateRanges: [march, backwards], timeZone: ScanFixtures.utc))
            == .scan(.invalidDateRange(index: 1, reason: "it starts on 2023-04-02, after its end 2023-04-01")))
        let oneDay = ScanDateRange(from: ScanDay(year: 2023, month: 4, day: 1), through: ScanDay(year: 2023, month: 4, day: 1))
        #expect(error(ScanConfiguration(dateRanges: [oneDay], timeZone: ScanFixtures.utc)) == nil)
    }

    @Test func aDayThatDoesNotExistIsRefused() {
        let february30 = ScanDateRange(from: ScanDay(year: 2023, month: 2, day: 30), through: ScanDay(year: 2023, month: 3, day: 2))
        #expect(error(ScanConfiguration(dateRanges: [february30], timeZone: ScanFixtures.utc))
            == .scan(.invalidDateRange(index: 0, reason: "2023-02-30 is not a day")))
        let month13 = ScanDateRange(from: ScanDay(year: 2023, month: 1, day: 1), through: ScanDay(year: 2023, month: 13, day: 1))
        #expect(error(ScanConfiguration(dateRanges: [month13], timeZone: ScanFixtures.utc))
            == .scan(.invalidDateRange(index: 0, reason: "2023-13-01 is not a day")))
    }

    @Test func theOtherSettingsAreChecked() {
        var unknownZone = ScanConfiguration(dateRanges: [march])
        unknownZone.timeZoneIdentifier = "Mars/Olympus_Mons"
        #expect(error(unknownZone) == .scan(.unknownTimeZone("Mars/Olympus_Mons")))
        #expect(error(ScanConfiguration(contact: ScanContact(name: "  ", phones: [""]))) == .scan(.emptyContact))
        #expect(error(ScanConfiguration(dateRanges: [march], threshold: 0)) == .scan(.invalidThreshold(0)))
        #expect(error(ScanConfiguration(dateRanges: [march], threshold: .infinity)) == .scan(.invalidThreshold(.infinity)))
        #expect(error(ScanConfiguration(dateRanges: [march], batchSize: 0))
            == .scan(.invalidConfiguration("the batch size must be 1 to 10000, not 0")))
    }

    @Test func phasesRunInTheirFixedOrder() {
        let everything = ScanConfiguration(
            references: .descriptors([ScanFixtures.reference]), dateRanges: [march],
            contact: ScanContact(name: "Deniz"), includeCalendar: true)
        #expect(everything.phases == [.faces, .dateRanges, .contacts, .calendar])
        #expect(ScanConfiguration(contact: ScanContact(emails: ["d@example.com"])).phases == [.contacts])
        #expect(ScanConfiguration(dateRanges: [march]).phases == [.dateRanges])
        #expect(ScanConfiguration().batchSize == 50)
        #expect(ScanConfiguration().threshold == 0.6)
    }
}
