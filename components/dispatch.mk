# Dynamic block dispatch (model.md 3.2).
