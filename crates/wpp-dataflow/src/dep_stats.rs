//! The static classes of the memory dependences a run exercised (`wpp deps stats
//! --module`): each (instruction, load) pair of a profile's dependences sorted by
//! [`Classifier`], with the load executions it accounts for (Tallam & Gupta's Table VIII).

use wpp_model::access_event::{AccessSite, SiteKind};
use wpp_model::exercised::{ExercisedDeps, Writer};
use wpp_profile::Profile;
use wpp_report::deps::ClassRow;

use crate::dep_class::{Classifier, DepClass};
use crate::Module;

/// The pairs of `deps` (sites `sites`, recorded in `profile` from `module`) whose writer
/// is an instruction, by static class; those the classifier cannot place (a bulk read, a
/// write that is neither a store nor a bulk write) are `unclassified`.
pub fn classes(profile: &Profile, module: &Module, deps: &ExercisedDeps, sites: &[AccessSite]) -> Vec<ClassRow> {
    let cfgs = profile.meta.functions.iter().map(|f| f.cfg.as_ref()).collect();
    let classifier = Classifier::new(cfgs, &module.effects);
    let order = [DepClass::FullyFree, DepClass::PartiallyFree, DepClass::FixedCost, DepClass::VariableCost];
    let mut rows: Vec<ClassRow> = order.iter().map(|c| ClassRow { class: c.name().into(), ..Default::default() }).collect();
    rows.push(ClassRow { class: "unclassified".into(), ..Default::default() });
    for ((w, load), e) in &deps.deps {
        let Writer::Site(i) = *w else { continue };
        let writer = &sites[i.idx()];
        if matches!(writer.kind, SiteKind::HostCall { .. }) {
            continue;
        }
        let row = match classifier.classify(writer.at, sites[load.idx()].at) {
            Some(c) => order.iter().position(|&o| o == c).expect("every class is listed"),
            None => order.len(),
        };
        rows[row].dependences += 1;
        rows[row].executions += e.count;
    }
    rows
}
