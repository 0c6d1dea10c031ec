/** On a tool card: the tool was not loaded up front; Claude found it with tool search. */
export function FoundBySearchBadge() {
  return (
    <span
      className="found-by-search"
      title="This tool was not loaded up front: Claude found it with tool search"
    >
      found by search
    </span>
  );
}
