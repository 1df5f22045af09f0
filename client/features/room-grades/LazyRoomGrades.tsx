import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The room grades page is its own chunk, loaded when it is first opened.
const RoomGradesPage = lazy(() =>
  import('./RoomGradesPage.tsx').then((module) => ({ default: module.RoomGradesPage })),
);

export function LazyRoomGrades() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the room grades" />}>
      <RoomGradesPage />
    </Suspense>
  );
}
