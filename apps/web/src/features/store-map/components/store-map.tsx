import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '@/lib/chunk';

// Leaflet, its CSS and the map data load with the map only (ADR 0042).
const LeafletMap = lazy(() =>
  loadChunk(() => import('./leaflet-map')).then((m) => ({ default: m.LeafletMap })),
);

export type StoreMapProps = {
  /** The marker's latitude; null (with longitude) before the store has a position. */
  latitude: number | null;
  longitude: number | null;
  /** A click on the map: the clicked point, rounded to six decimals. */
  onPick: (latitude: number, longitude: number) => void;
  /** The map's height in pixels (320 by default). */
  height?: number;
};

/** A failed map chunk leaves the rest of the form usable. */
class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

const coordinate = (v: number | null, unset: string): string => (v === null ? unset : v.toFixed(6));

/**
 * The map of the basic-information screen (spec 2 §4), for reference only: a controlled
 * marker at the given coordinates, shown at zoom 17 and recentred when they change; a click
 * moves the marker and reports the point through onPick. Tiles come from MAP_TILE_URL when
 * configured; otherwise the map draws Japan's prefectures offline (ADR 0042). The marker's
 * coordinates are written beside the map for those who do not use a pointer.
 */
export function StoreMap({ latitude, longitude, onPick, height = 320 }: StoreMapProps) {
  const { t } = useTranslation();
  const lat = longitude === null ? null : latitude;
  const lng = latitude === null ? null : longitude;
  const placeholder = (children: ReactNode) => (
    <Center h={height} bg="gray.1">
      {children}
    </Center>
  );
  return (
    <Stack gap={6}>
      <Box
        style={{
          borderRadius: 4,
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-gray-3)',
        }}
      >
        <MapBoundary
          fallback={placeholder(
            <Text size="sm" c="dimmed">
              {t('storeMap.failed')}
            </Text>,
          )}
        >
          <Suspense
            fallback={placeholder(
              <Group gap="xs">
                <Loader size="xs" />
                <Text size="sm">{t('storeMap.loading')}</Text>
              </Group>,
            )}
          >
            <LeafletMap
              latitude={lat}
              longitude={lng}
              onPick={onPick}
              height={height}
              label={t('storeMap.label')}
              zoomIn={t('storeMap.zoomIn')}
              zoomOut={t('storeMap.zoomOut')}
            />
          </Suspense>
        </MapBoundary>
      </Box>
      <Text size="sm" aria-live="polite">
        {t('storeMap.latitude')}: {coordinate(lat, t('storeMap.unset'))} / {t('storeMap.longitude')}
        : {coordinate(lng, t('storeMap.unset'))}
      </Text>
      <Text size="xs" c="dimmed">
        {t('storeMap.hint')}
      </Text>
    </Stack>
  );
}
