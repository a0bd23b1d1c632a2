//! The TypeScript declarations of the IPC's types (`ts-rs`), collected once for
//! `ui/src/generated/ipc.ts` by the command and event tables (`ipc`, `events`).

use std::collections::BTreeMap;

use ts_rs::{Config, TS};

/// Writes a type's TypeScript name.
pub type TsName = fn(&Config) -> String;

/// Every named type the commands and events reach, declared once (sorted by name).
#[derive(Default)]
pub struct Declarations {
    pub(crate) cfg: Config,
    pub(crate) by_name: BTreeMap<String, String>,
    /// Every type walked (recursive types are walked once).
    walked: std::collections::HashSet<std::any::TypeId>,
    pub(crate) clashes: Vec<String>,
}

impl Declarations {
    /// No declaration yet, with `cfg`.
    pub(crate) fn new(cfg: Config) -> Self {
        Self {
            cfg,
            ..Default::default()
        }
    }

    pub(crate) fn visit<T: TS + 'static + ?Sized>(&mut self) {
        self.declare::<T>();
    }

    fn declare<T: TS + 'static + ?Sized>(&mut self) {
        if !self.walked.insert(std::any::TypeId::of::<T>()) {
            return;
        }
        // Only types with a declaration of their own (derived ones) are named.
        if T::output_path().is_none() {
            T::visit_dependencies(&mut WalkOnly(self));
            T::visit_generics(&mut WalkOnly(self));
            return;
        }
        let name = T::ident(&self.cfg);
        let docs = T::docs().unwrap_or_default();
        let decl = format!("{docs}export {}", T::decl(&self.cfg));
        // A type and its `ts-rs` shadow (`serde_json::Value` and `JsonValue`) declare the same.
        match self.by_name.get(&name) {
            Some(seen) if *seen == decl => {}
            Some(_) => self.clashes.push(name),
            None => {
                self.by_name.insert(name, decl);
            }
        }
        T::visit_dependencies(&mut WalkOnly(self));
        T::visit_generics(&mut WalkOnly(self));
    }
}

struct WalkOnly<'a>(&'a mut Declarations);
impl ts_rs::TypeVisitor for WalkOnly<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        self.0.declare::<T>();
    }
}
