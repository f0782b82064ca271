-- Issue 13 §1: a relate or unrelate is history of both items it joins. The event's item keeps
-- its row (side 'item'); its target gets one too (side 'target', `other` naming the item), so
-- `mem history` of either end lists it and says which end it is. NULL on every other row.
ALTER TABLE item_history ADD COLUMN side TEXT;
