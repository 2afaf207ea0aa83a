import Testing

@testable import EraserKit

@Suite struct NameFoldingTests {
    @Test(arguments: [
        ("İPEK", "ipek"), ("ışık", "isik"), ("IŞIK", "isik"), ("Çağrı Öztürk", "cagri ozturk"), ("Ségolène", "segolene"),
        ("Łukasz Żółć", "lukasz zolc"), ("Straße", "strasse"), ("Søren Ærø", "soren aero"), ("ŞEYMA", "seyma"),
        ("José", "jose"),
    ])
    func caseDiacriticsAndTurkishIAreSetAside(text: String, folded: String) {
        #expect(NameFolding.fold(text) == folded)
    }

    @Test func tokensAreRunsOfLettersAndDigits() {
        #expect(NameFolding.tokens("Dinner with Sam-Taylor, 8pm (Karaköy)") == ["dinner", "with", "sam", "taylor", "8pm", "karakoy"])
        #expect(NameFolding.tokens("Sam's birthday 🎂") == ["sam", "s", "birthday"])
        #expect(NameFolding.tokens("  ").isEmpty)
    }
}
