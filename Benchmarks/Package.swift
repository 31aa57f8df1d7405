// swift-tools-version:6.1
// The benchmark lab of SwiftRex: a nested package, so that users of the
// library never need jemalloc. Run it with `Scripts/bench` from the repo root.
import PackageDescription

let package = Package(
    name: "SwiftRexBenchmarks",
    products: [
        .executable(name: "swiftrex-lab", targets: ["SwiftRexLab"])
    ],
    dependencies: [
        // Without the `Macros` trait: the lab never resolves or builds swift-syntax.
        .package(name: "SwiftRex", path: "..", traits: [])
    ],
    targets: [
        // jemalloc replaces malloc for the whole lab executable; its statistics
        // give exact allocation counts.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        // Callgrind client requests (valgrind's header when installed, stubs otherwise):
        // the lab's instruction counts.
        .target(name: "CValgrind"),
        // Measurement infrastructure: allocation counter, instruction counter, statistics,
        // timing harness, result model, compare, Markdown, SVG, registry, CLI.
        .target(name: "LabCore", dependencies: ["CJemalloc", "CValgrind"]),
        // Hand-written reference points measured in the same run.
        .target(name: "Baselines"),
        // The stack matrix: lifted, combined shapes over a large or small root state, built for
        // the lab's scenarios and the lab's stack tests alike.
        .target(
            name: "StackMatrix",
            dependencies: [
                .product(name: "SwiftRex", package: "SwiftRex"),
                .product(name: "SwiftRexTestSupport", package: "SwiftRex"),
            ]
        ),
        .executableTarget(
            name: "SwiftRexLab",
            dependencies: [
                "CJemalloc", "LabCore", "Baselines", "StackMatrix",
                .product(name: "SwiftRex", package: "SwiftRex"),
                // The stack high-water primitive shared with the library's tests.
                .product(name: "SwiftRexTestSupport", package: "SwiftRex"),
            ]
        ),
        // The lab's tests; they also hold the TestStore's failure diff to a memory budget, counted
        // exactly by jemalloc (the library's own tests cannot count allocations), and the stack
        // budget of lifted dispatches (SwiftRexTestSupport's high-water probe).
        .testTarget(
            name: "LabCoreTests",
            dependencies: [
                "LabCore", "Baselines", "StackMatrix",
                .product(name: "SwiftRex", package: "SwiftRex"),
                .product(name: "SwiftRexTesting", package: "SwiftRex"),
                .product(name: "SwiftRexTestSupport", package: "SwiftRex"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
