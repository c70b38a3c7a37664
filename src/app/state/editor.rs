//! Editing the start board: edit mode (two clicks swap two cells) and the paste box.

/// What a click on a cell does in edit mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditClick {
    /// Edit mode is off: the click slides a tile.
    Off,
    /// The first cell of a swap was picked.
    Picked,
    /// Swap these two cells (the pick is cleared).
    Swap(usize, usize),
}

/// Edit mode and the paste box.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Editor {
    /// `None`: off; `Some(None)`: on, nothing picked; `Some(Some(cell))`: the first cell of a
    /// swap picked.
    mode: Option<Option<usize>>,
    /// Text in the paste box.
    pub paste: String,
    /// Why the paste box's text did not load (shown under it too), with the text it was for:
    /// it goes when the text changes.
    pub paste_error: Option<(String, String)>,
}

impl Editor {
    /// Whether edit mode is on.
    pub fn is_on(&self) -> bool {
        self.mode.is_some()
    }

    /// Turns edit mode on (nothing picked) or off.
    pub fn set_on(&mut self, on: bool) {
        self.mode = on.then_some(None);
    }

    /// The cell picked as the first of a swap.
    pub fn picked(&self) -> Option<usize> {
        self.mode.flatten()
    }

    /// A click on `cell`: picks it, or completes a swap with the cell picked before.
    pub fn click(&mut self, cell: usize) -> EditClick {
        match self.mode {
            None => EditClick::Off,
            Some(None) => {
                self.mode = Some(Some(cell));
                EditClick::Picked
            }
            Some(Some(first)) => {
                self.mode = Some(None);
                EditClick::Swap(first, cell)
            }
        }
    }
}
