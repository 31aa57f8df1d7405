import SwiftRex
import Testing

/// Optics: `Lens`, `AffineTraversal` and `Prism` — construction, laws and composition.
@Suite struct OpticsTests {
    struct Inner: Equatable, Sendable {
        var count = 0
        var name = "n"
    }

    struct Outer: Equatable, Sendable {
        var inner = Inner()
        var optional: Inner?
        let fixed: Int
    }

    enum Screen: Equatable, Sendable {
        case idle
        case detail(Inner)
        case list([Int])
    }

    static let detail = Prism<Screen, Inner>(
        preview: { if case .detail(let inner) = $0 { inner } else { nil } },
        review: Screen.detail
    )

    static let countPrism = Prism<Inner, Int>(
        preview: { $0.count > 0 ? $0.count : nil },
        review: { Inner(count: $0) }
    )

    // MARK: Lens

    @Test func keyPathLensGetsSetsAndModifies() {
        let lens = Lens(\Outer.inner.count)
        var outer = Outer(fixed: 1)
        #expect(lens.get(outer) == 0)
        lens.set(&outer, 4)
        #expect(outer.inner.count == 4)
        lens.modify(&outer) { $0 += 1 }
        #expect(outer.inner.count == 5)
    }

    @Test func getSetLensReachesALetProperty() {
        let lens = Lens<Outer, Int>(get: { $0.fixed }, set: { whole, new in whole = Outer(inner: whole.inner, optional: whole.optional, fixed: new) })
        var outer = Outer(inner: Inner(count: 2), fixed: 1)
        lens.modify(&outer) { $0 += 10 }
        #expect(outer == Outer(inner: Inner(count: 2), fixed: 11))
    }

    @Test func getModifyLensModifiesInPlace() {
        let lens = Lens<Outer, Inner>(get: { $0.inner }, modify: { whole, body in body(&whole.inner) })
        var outer = Outer(fixed: 0)
        lens.modify(&outer) { $0.name = "changed" }
        #expect(outer.inner.name == "changed")
    }

    @Test func lensesObeyTheLensLaws() {
        let lenses: [Lens<Outer, Int>] = [
            Lens(\Outer.inner.count),
            Lens(get: { $0.inner.count }, set: { $0.inner.count = $1 }),
            Lens(get: { $0.inner.count }, modify: { whole, body in body(&whole.inner.count) }),
            Lens(\Outer.inner) >>> Lens(\Inner.count),
        ]
        let wholes = [Outer(fixed: 0), Outer(inner: Inner(count: 7, name: "x"), optional: Inner(), fixed: 3)]
        for lens in lenses {
            for whole in wholes {
                var setGet = whole
                lens.set(&setGet, lens.get(whole))
                #expect(setGet == whole) // get-set
                var putThenGet = whole
                lens.set(&putThenGet, 42)
                #expect(lens.get(putThenGet) == 42) // set-get
                var twice = whole
                lens.set(&twice, 1)
                lens.set(&twice, 2)
                var once = whole
                lens.set(&once, 2)
                #expect(twice == once) // set-set
            }
        }
    }

    @Test func lensCompositionFocusesInsideTheOuterFocus() {
        let composed = Lens(\Outer.inner) >>> Lens(\Inner.name)
        var outer = Outer(fixed: 0)
        composed.set(&outer, "deep")
        #expect(outer.inner.name == "deep")
        #expect(composed.get(outer) == "deep")
        let identity = Lens<Outer, Outer>.identity
        #expect(identity.get(outer) == outer)
        #expect((identity >>> composed).get(outer) == "deep")
    }

    @Test func lensLiftRunsTheMutationOnTheFocusAndKeepsTheIdentity() {
        let lens = Lens(\Outer.inner.count)
        var outer = Outer(fixed: 0)
        lens.lift(EndoMut { $0 += 3 }).runEndoMut(&outer)
        #expect(outer.inner.count == 3)
        #expect(lens.lift(.identity).isIdentity)
    }

    // MARK: AffineTraversal

    @Test func optionalKeyPathTraversalSkipsWhenAbsent() {
        let affine = AffineTraversal(\Outer.optional)
        var outer = Outer(fixed: 0)
        #expect(affine.preview(outer) == nil)
        let found = affine.tryModify(&outer) { $0.count = 99 }
        #expect(!found)
        #expect(outer == Outer(fixed: 0))
        #expect(!affine.trySet(&outer, Inner(count: 1)))
        affine.lift(EndoMut { $0.count += 1 }).runEndoMut(&outer)
        #expect(outer.optional == nil)
    }

    @Test func optionalKeyPathTraversalMutatesWhenPresent() {
        let affine = AffineTraversal(\Outer.optional)
        var outer = Outer(optional: Inner(count: 1), fixed: 0)
        #expect(affine.tryModify(&outer) { $0.count += 1 })
        #expect(outer.optional?.count == 2)
        #expect(affine.trySet(&outer, Inner(count: 10, name: "set")))
        #expect(outer.optional == Inner(count: 10, name: "set"))
        affine.lift(EndoMut { $0.count += 5 }).runEndoMut(&outer)
        #expect(outer.optional?.count == 15)
        #expect(affine.lift(.identity).isIdentity)
    }

    @Test func previewSetTraversalWritesBackWhenPresent() {
        let affine = AffineTraversal<Outer, Int>(
            preview: { $0.optional?.count },
            set: { whole, new in whole.optional?.count = new }
        )
        var absent = Outer(fixed: 0)
        #expect(!affine.tryModify(&absent) { $0 += 1 })
        var present = Outer(optional: Inner(count: 4), fixed: 0)
        #expect(affine.tryModify(&present) { $0 += 1 })
        #expect(present.optional?.count == 5)
    }

    @Test func traversalsComposeWithLensesAndReportAbsence() {
        let optionalCount = AffineTraversal(\Outer.optional) >>> Lens(\Inner.count)
        var outer = Outer(optional: Inner(count: 1), fixed: 0)
        #expect(optionalCount.tryModify(&outer) { $0 = 8 })
        #expect(optionalCount.preview(outer) == 8)

        let positive = Lens(\Outer.inner) >>> Self.countPrism.affine
        var zero = Outer(fixed: 0)
        #expect(positive.preview(zero) == nil)
        #expect(!positive.tryModify(&zero) { $0 = 5 })
        #expect(zero.inner.count == 0)

        let deep = AffineTraversal(\Outer.optional) >>> Self.countPrism.affine
        var nested = Outer(optional: Inner(count: 0), fixed: 0)
        #expect(!deep.tryModify(&nested) { $0 = 5 })
        nested.optional?.count = 2
        #expect(deep.tryModify(&nested) { $0 *= 10 })
        #expect(nested.optional?.count == 20)
        #expect(Lens(\Outer.inner).affine.preview(nested) == nested.inner)
    }

    // MARK: Prism

    @Test func prismPreviewsReviewsAndMatches() {
        let prism = Self.detail
        #expect(prism.preview(.detail(Inner(count: 2))) == Inner(count: 2))
        #expect(prism.preview(.idle) == nil)
        #expect(prism.review(Inner(count: 3)) == .detail(Inner(count: 3)))
        #expect(prism.matches(.detail(Inner())))
        #expect(!prism.matches(.list([])))
    }

    @Test func prismsObeyThePrismLaws() {
        let wholes: [Screen] = [.idle, .detail(Inner(count: 1)), .list([1])]
        for part in [Inner(), Inner(count: 5, name: "p")] {
            #expect(Self.detail.preview(Self.detail.review(part)) == part)
        }
        for whole in wholes {
            if let part = Self.detail.preview(whole) { #expect(Self.detail.review(part) == whole) }
        }
    }

    @Test func prismTryModifyMutatesTheMatchingCaseOnly() {
        var screen = Screen.detail(Inner(count: 1))
        #expect(Self.detail.tryModify(&screen) { $0.count += 1 })
        #expect(screen == .detail(Inner(count: 2)))
        var other = Screen.list([1, 2])
        #expect(!Self.detail.tryModify(&other) { $0.count += 1 })
        #expect(other == .list([1, 2]))
        Self.detail.lift(EndoMut { $0.name = "lifted" }).runEndoMut(&screen)
        #expect(screen == .detail(Inner(count: 2, name: "lifted")))
        #expect(Self.detail.affine.trySet(&screen, Inner()))
        #expect(screen == .detail(Inner()))
    }

    @Test func prismCompositionFocusesInsideTheCase() {
        let composed = Self.detail >>> Self.countPrism
        #expect(composed.preview(.detail(Inner(count: 3))) == 3)
        #expect(composed.preview(.detail(Inner(count: 0))) == nil)
        #expect(composed.preview(.idle) == nil)
        #expect(composed.review(4) == .detail(Inner(count: 4)))
        var screen = Screen.detail(Inner(count: 3))
        #expect(composed.tryModify(&screen) { $0 *= 2 })
        #expect(screen == .detail(Inner(count: 6)))
        let identity = Prism<Screen, Screen>.identity
        #expect(identity.preview(.idle) == .idle)
        #expect((identity >>> Self.detail).review(Inner()) == .detail(Inner()))
    }
}
