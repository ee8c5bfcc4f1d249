//! libFuzzer's bytes as a generated kernel and SM (`heddle_fuzz`'s `Case`
//! is drawn from them, as `heddle fuzz` draws it from seeded bytes), run on
//! the golden model and on the RTL in lockstep: any difference panics.
//! Edge coverage of the RTL's `update()` code steers the mutations toward
//! new control paths of the SM. A `heddle fuzz --corpus` directory holds
//! inputs of this target. `$HEDDLE_PLANT` builds the SM with a planted bug.
#![no_main]
use heddle_fuzz::{gen, run_case, Oracle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(case) = gen::case_with(&mut u, gen::Options::default()) else { return };
    match run_case(&case, &Oracle::default()) {
        Ok(v) => {
            if let Some(m) = v.mismatch {
                panic!("{}\nrun: {}\n{}", m.detail, case.run_args_on(m.engine), case.render());
            }
        }
        Err(e) => panic!("generator bug: {e}"),
    }
});
